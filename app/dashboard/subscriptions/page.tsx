import type { Metadata } from "next";
import Link from "next/link";
import { ListCard } from "@/components/dashboard/list-card";
import { ListFilters } from "@/components/dashboard/list-filters";
import type { Column } from "@/components/ui/data-table";
import { formatDateTime, formatMoney } from "@/components/ui/format";
import { PageHeader } from "@/components/ui/page-header";
import { StatusBadge } from "@/components/ui/status-badge";
import { db } from "@/lib/db/client";
import { requireMember } from "@/lib/http/dashboard-session";
import { subscriptionStatuses } from "@/lib/recurring/subscription-state";
import { listSubscriptions } from "@/lib/subscriptions/list-subscriptions";
import { describeInterval } from "@/lib/subscriptions/serialize-recurring";
import { subscriptionListPageQuery } from "@/lib/subscriptions/subscription-schemas";
import { readPageQuery } from "@/lib/validation/read-page-query";

export const metadata: Metadata = { title: "Subscriptions" };

type Row = Awaited<ReturnType<typeof listSubscriptions>>["subscriptions"][number];

const columns: Column<Row>[] = [
  {
    header: "Subscription",
    cell: (subscription) => (
      <Link
        className="font-mono text-xs font-medium text-brand-600 hover:underline"
        href={`/dashboard/subscriptions/${subscription.id}`}
      >
        {subscription.id}
      </Link>
    ),
  },
  { header: "Status", cell: (subscription) => <StatusBadge status={subscription.status} /> },
  {
    header: "Price",
    numeric: true,
    cell: (subscription) =>
      `${formatMoney(subscription.amount, subscription.currency)} ${describeInterval(subscription.interval, subscription.intervalCount)}`,
  },
  { header: "Customer", cell: (subscription) => subscription.customerEmail ?? "—" },
  { header: "Paid until", cell: (subscription) => formatDateTime(subscription.currentPeriodEnd) },
];

export default async function SubscriptionsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const member = await requireMember();
  const query = readPageQuery(subscriptionListPageQuery, await searchParams);
  const { subscriptions, total } = await listSubscriptions(db(), member.organization.id, {
    ...query,
    customer: query.q,
  });
  const filtered = Boolean(query.status || query.q);
  return (
    <>
      <PageHeader
        title="Subscriptions"
        description="Started by a paid recurring price; each period's invoice is emailed to the customer to pay."
      />
      <ListCard
        filters={
          <ListFilters
            statuses={subscriptionStatuses}
            status={query.status}
            q={query.q}
            searchLabel="Customer email or reference"
          />
        }
        caption="Subscriptions"
        columns={columns}
        rows={subscriptions}
        rowKey={(subscription) => subscription.id}
        emptyTitle={filtered ? "No subscriptions match" : "No subscriptions yet"}
        empty={
          filtered
            ? "Try another status or clear the filters."
            : "A subscription starts when a buyer pays a paylink or checkout with a recurring price."
        }
        paging={{ page: query.page, rows: query.rows, total, query: { status: query.status, q: query.q } }}
      />
    </>
  );
}
