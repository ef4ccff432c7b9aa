import type { Metadata } from "next";
import Link from "next/link";
import { z } from "zod";
import { GetStarted } from "@/components/dashboard/get-started";
import { MonthSummary } from "@/components/dashboard/month-summary";
import { VolumeChart } from "@/components/dashboard/volume-chart";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { formatDateTime, formatMoney } from "@/components/ui/format";
import { PageHeader } from "@/components/ui/page-header";
import { StatusBadge } from "@/components/ui/status-badge";
import { getDashboardOverview } from "@/lib/dashboard/get-dashboard-overview";
import { db } from "@/lib/db/client";
import { requireMember } from "@/lib/http/dashboard-session";
import { monthField, monthOf } from "@/lib/reports/month-range";
import { summarizeMonth } from "@/lib/reports/summarize-month";
import { readPageQuery } from "@/lib/validation/read-page-query";

export const metadata: Metadata = { title: "Overview" };

function Stat({ label, value, href }: { label: string; value: string; href: string }) {
  return (
    <Link
      href={href}
      className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm transition sm:p-5 hover:border-brand-500 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
    >
      <p className="text-sm text-slate-500">{label}</p>
      <p className="mt-1 text-xl font-semibold tabular-nums text-slate-900 sm:text-2xl">{value}</p>
    </Link>
  );
}

function StatusCounts({ counts, href }: { counts: Record<string, number>; href: string }) {
  const entries = Object.entries(counts).sort(([, a], [, b]) => b - a);
  if (entries.length === 0) return <EmptyState title="None yet" />;
  return (
    <ul className="divide-y divide-slate-100">
      {entries.map(([status, count]) => (
        <li key={status}>
          <Link
            href={`${href}?status=${status}`}
            className="flex items-center justify-between px-5 py-2.5 hover:bg-slate-50"
          >
            <StatusBadge status={status} />
            <span className="text-sm font-medium tabular-nums text-slate-700">{count}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** ?month=YYYY-MM picks the books card's month; this UTC month by default. */
const overviewQuery = z.object({ month: monthField.optional() });

export default async function OverviewPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const member = await requireMember();
  const { month } = readPageQuery(overviewQuery, await searchParams);
  const [overview, summary] = await Promise.all([
    getDashboardOverview(db(), member.organization.id),
    summarizeMonth(db(), member.organization.id, month ?? monthOf(new Date())),
  ]);
  const noSessions = Object.keys(overview.sessions).length === 0;
  const open = (overview.sessions.OPEN ?? 0) + (overview.sessions.PROCESSING ?? 0);
  const awaiting =
    (overview.invoices.AWAITING_PAYMENT ?? 0) +
    (overview.invoices.PARTIALLY_PAID ?? 0) +
    (overview.invoices.CONFIRMING ?? 0);
  return (
    <>
      <PageHeader title="Overview" description={member.organization.name} />
      <div className="flex flex-col gap-6">
        {noSessions ? <GetStarted /> : null}
        <div className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
          <Stat
            label="Confirmed volume, 30 days"
            value={formatMoney(overview.volumeUsd, "USD")}
            href="/dashboard/invoices?status=CONFIRMED"
          />
          <Stat
            label="Paid invoices, 30 days"
            value={String(overview.confirmedInvoices)}
            href="/dashboard/invoices?status=CONFIRMED"
          />
          <Stat label="Awaiting payment" value={String(awaiting)} href="/dashboard/invoices" />
          <Stat label="Open sessions" value={String(open)} href="/dashboard/sessions?status=OPEN" />
        </div>
        <MonthSummary summary={summary} />
        <Card title="Confirmed volume" description="Per day, last 30 days, in USD as quoted">
          <div className="p-4">
            <VolumeChart series={overview.series} />
          </div>
        </Card>
        <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
          <Card title="Checkout sessions">
            <StatusCounts counts={overview.sessions} href="/dashboard/sessions" />
          </Card>
          <Card title="Invoices">
            <StatusCounts counts={overview.invoices} href="/dashboard/invoices" />
          </Card>
          <Card title="Subscriptions" description="Active and past due">
            <StatusCounts counts={overview.subscriptions} href="/dashboard/subscriptions" />
          </Card>
          <Card title="Recent activity">
            {overview.recent.length === 0 ? (
              <EmptyState title="No events yet">
                Events appear when buyers start and complete payments.
              </EmptyState>
            ) : (
              <ul className="divide-y divide-slate-100">
                {overview.recent.map((event) => (
                  <li key={event.id} className="flex items-center justify-between gap-3 px-5 py-2.5">
                    <div className="min-w-0">
                      <p className="truncate font-mono text-xs text-slate-900">{event.type}</p>
                      <p className="text-xs text-slate-500">{formatDateTime(event.createdAt)}</p>
                    </div>
                    {event.invoiceId ? (
                      <Link
                        className="shrink-0 text-xs font-medium text-brand-600 hover:underline"
                        href={`/dashboard/invoices/${event.invoiceId}`}
                      >
                        View
                      </Link>
                    ) : (
                      <span className="shrink-0 text-xs text-slate-400">{event.livemode ? "" : "test"}</span>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </Card>
        </div>
      </div>
    </>
  );
}
