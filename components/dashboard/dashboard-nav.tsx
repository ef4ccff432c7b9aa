"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useState } from "react";

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

/** The dashboard's sections: a column on wide screens; on phones and tablets, a menu that opens under a button. */
export function DashboardNav() {
  const pathname = usePathname();
  const [open, setOpen] = useState(false);
  const isCurrent = (href: string) =>
    href === "/dashboard" ? pathname === href : pathname === href || pathname.startsWith(`${href}/`);
  const current = items.findLast((item) => isCurrent(item.href));
  return (
    <nav
      aria-label="Dashboard"
      onKeyDown={(event) => {
        if (event.key === "Escape") setOpen(false);
      }}
    >
      <button
        type="button"
        aria-expanded={open}
        aria-controls="dashboard-sections"
        onClick={() => setOpen(!open)}
        className="flex w-full items-center justify-between gap-3 rounded-lg border border-slate-200 bg-white px-3 py-2 text-sm font-medium text-slate-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 lg:hidden"
      >
        <span className="flex items-center gap-2">
          <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 fill-current">
            {open ? (
              <path d="M4.3 4.3a1 1 0 0 1 1.4 0L10 8.6l4.3-4.3a1 1 0 1 1 1.4 1.4L11.4 10l4.3 4.3a1 1 0 0 1-1.4 1.4L10 11.4l-4.3 4.3a1 1 0 0 1-1.4-1.4L8.6 10 4.3 5.7a1 1 0 0 1 0-1.4Z" />
            ) : (
              <path d="M3 5a1 1 0 0 1 1-1h12a1 1 0 1 1 0 2H4a1 1 0 0 1-1-1Zm0 5a1 1 0 0 1 1-1h12a1 1 0 1 1 0 2H4a1 1 0 0 1-1-1Zm0 5a1 1 0 0 1 1-1h12a1 1 0 1 1 0 2H4a1 1 0 0 1-1-1Z" />
            )}
          </svg>
          Menu
        </span>
        {current ? <span className="truncate text-slate-600">{current.label}</span> : null}
      </button>
      <ul
        id="dashboard-sections"
        className={`${open ? "grid" : "hidden"} mt-2 grid-cols-1 gap-1 sm:grid-cols-2 lg:mt-0 lg:flex lg:flex-col`}
      >
        {items.map((item) => (
          <li key={item.href}>
            <Link
              href={item.href}
              aria-current={isCurrent(item.href) ? "page" : undefined}
              onClick={() => setOpen(false)}
              className={`block rounded-lg px-3 py-2 text-sm font-medium transition focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 ${
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
