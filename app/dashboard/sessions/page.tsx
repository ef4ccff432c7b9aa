import type { Metadata } from "next";
import Link from "next/link";
import { ListCard } from "@/components/dashboard/list-card";
import { ListFilters } from "@/components/dashboard/list-filters";
import type { Column } from "@/components/ui/data-table";
import { formatDateTime, formatMoney } from "@/components/ui/format";
import { PageHeader } from "@/components/ui/page-header";
import { StatusBadge } from "@/components/ui/status-badge";
import { listCheckoutSessions, sessionListQuery } from "@/lib/checkout/list-checkout-sessions";
import { db } from "@/lib/db/client";
import { requireMember } from "@/lib/http/dashboard-session";
import { readPageQuery } from "@/lib/validation/read-page-query";

export const metadata: Metadata = { title: "Checkout sessions" };

type Row = Awaited<ReturnType<typeof listCheckoutSessions>>["sessions"][number];

const columns: Column<Row>[] = [
  {
    header: "Session",
    cell: (session) => (
      <Link
        className="font-mono text-xs font-medium text-brand-600 hover:underline"
        href={`/dashboard/sessions/${session.id}`}
      >
        {session.id}
      </Link>
    ),
  },
  { header: "Amount", numeric: true, cell: (session) => formatMoney(session.amount, session.currency) },
  { header: "Status", cell: (session) => <StatusBadge status={session.status} /> },
  {
    header: "Payment",
    cell: (session) => (session.invoice ? <StatusBadge status={session.invoice.status} /> : "—"),
  },
  { header: "Order", cell: (session) => session.merchantOrderId ?? "—" },
  { header: "Created", cell: (session) => formatDateTime(session.createdAt) },
];

export default async function SessionsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const member = await requireMember();
  const query = readPageQuery(sessionListQuery, await searchParams);
  const { sessions, total } = await listCheckoutSessions(db(), member.organization.id, query);
  return (
    <>
      <PageHeader
        title="Checkout sessions"
        description="Each payment attempt your server created, with the buyer's progress."
      />
      <ListCard
        filters={
          <ListFilters
            statuses={sessionListQuery.shape.status.unwrap().options}
            status={query.status}
            q={query.q}
            searchLabel="Session, invoice or order id"
          />
        }
        caption="Checkout sessions"
        columns={columns}
        rows={sessions}
        rowKey={(session) => session.id}
        emptyTitle={query.status || query.q ? "No sessions match" : "No checkout sessions yet"}
        empty={
          query.status || query.q ? (
            "Try another status or clear the filters."
          ) : (
            <>
              Create one with <code className="font-mono">POST /api/checkout-sessions</code>; the{" "}
              <Link className="font-medium text-brand-600 hover:underline" href="/dashboard">
                overview
              </Link>{" "}
              shows the call.
            </>
          )
        }
        paging={{ page: query.page, rows: query.rows, total, query: { status: query.status, q: query.q } }}
      />
    </>
  );
}
