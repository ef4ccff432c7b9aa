"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

const items = [
  { href: "/dashboard", label: "Overview" },
  { href: "/dashboard/sessions", label: "Checkout sessions" },
  { href: "/dashboard/invoices", label: "Invoices" },
  { href: "/dashboard/paylinks", label: "Paylinks" },
  { href: "/dashboard/subscriptions", label: "Subscriptions" },
  { href: "/dashboard/refunds", label: "Refunds" },
  { href: "/dashboard/settlement", label: "Settlement" },
  { href: "/dashboard/webhooks", label: "Webhooks" },
  { href: "/dashboard/api-keys", label: "API keys" },
  { href: "/dashboard/agents", label: "Agents" },
  { href: "/dashboard/connected-apps", label: "Connected apps" },
  { href: "/dashboard/settings", label: "Settings" },
];

/** The dashboard's sections: a column on wide screens, a scrolling row on phones. */
export function DashboardNav() {
  const pathname = usePathname();
  const isCurrent = (href: string) =>
    href === "/dashboard" ? pathname === href : pathname === href || pathname.startsWith(`${href}/`);
  return (
    <nav aria-label="Dashboard" className="-mx-1 overflow-x-auto lg:mx-0 lg:overflow-visible">
      <ul className="flex gap-1 px-1 lg:flex-col lg:px-0">
        {items.map((item) => (
          <li key={item.href}>
            <Link
              href={item.href}
              aria-current={isCurrent(item.href) ? "page" : undefined}
              className={`block whitespace-nowrap rounded-lg px-3 py-2 text-sm font-medium transition focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 ${
                isCurrent(item.href)
                  ? "bg-brand-50 text-brand-700"
                  : "text-slate-600 hover:bg-slate-100 hover:text-slate-900"
              }`}
            >
              {item.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
