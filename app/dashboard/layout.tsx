import Link from "next/link";
import type { ReactNode } from "react";
import { QueryProvider } from "@/components/checkout/query-provider";
import { DashboardNav } from "@/components/dashboard/dashboard-nav";
import { OrganizationSwitcher } from "@/components/dashboard/organization-switcher";
import { SignOutButton } from "@/components/dashboard/sign-out-button";
import { config } from "@/lib/config";
import { requireMember } from "@/lib/http/dashboard-session";
import { switchOrganizationAction } from "./actions";

export const dynamic = "force-dynamic";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const member = await requireMember();
  return (
    <div data-theme="light" className="min-h-screen lg:flex">
      <aside className="border-b border-slate-200 bg-white lg:w-64 lg:shrink-0 lg:border-r lg:border-b-0">
        <div className="lg:sticky lg:top-0 lg:flex lg:h-screen lg:flex-col">
          <div className="flex items-center justify-between gap-3 px-4 pt-4 lg:flex-col lg:items-stretch lg:px-5 lg:pt-6">
            <Link href="/dashboard" className="text-sm font-bold tracking-tight text-brand-600">
              {config().serviceName}
            </Link>
            <OrganizationSwitcher
              current={member.organization.id}
              organizations={member.memberships.map((m) => m.organization)}
              switchOrganization={switchOrganizationAction}
            />
          </div>
          <div className="px-3 py-3 lg:flex-1 lg:px-3 lg:py-6">
            <DashboardNav />
          </div>
          <div className="hidden border-t border-slate-100 px-5 py-4 lg:block">
            <p className="truncate text-xs text-slate-500" title={member.user.email}>
              {member.user.email}
            </p>
            <div className="-ml-3 mt-1">
              <SignOutButton />
            </div>
          </div>
        </div>
      </aside>
      <main className="min-w-0 flex-1 px-4 py-6 sm:px-6 lg:px-10 lg:py-10">
        <div className="mx-auto max-w-6xl">
          <QueryProvider>{children}</QueryProvider>
        </div>
        <div className="mt-10 flex items-center justify-between border-t border-slate-200 pt-4 text-xs text-slate-500 lg:hidden">
          <span className="truncate" title={member.user.email}>
            {member.user.email}
          </span>
          <SignOutButton />
        </div>
      </main>
    </div>
  );
}
