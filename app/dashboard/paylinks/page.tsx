import type { Metadata } from "next";
import Link from "next/link";
import { CreatePaylinkForm } from "@/components/dashboard/create-paylink-form";
import { ListCard } from "@/components/dashboard/list-card";
import { Card } from "@/components/ui/card";
import { DateTime } from "@/components/ui/date-time";
import { PageHeader } from "@/components/ui/page-header";
import { StatusBadge } from "@/components/ui/status-badge";
import { db } from "@/lib/db/client";
import { requireMember } from "@/lib/http/dashboard-session";
import { listPaylinks } from "@/lib/paylinks/list-paylinks";
import { listPaylinksQuery } from "@/lib/paylinks/paylink-schemas";
import { serializePaylink } from "@/lib/paylinks/serialize-paylink";
import { createPaylinkAction } from "./actions";

export const metadata: Metadata = { title: "Paylinks" };

type Row = ReturnType<typeof serializePaylink>;

export default async function PaylinksPage({ searchParams }: { searchParams: Promise<{ page?: string }> }) {
  const member = await requireMember();
  const query = listPaylinksQuery.safeParse({ page: (await searchParams).page });
  const paging = query.success ? query.data : listPaylinksQuery.parse({});
  const { paylinks, total } = await listPaylinks(db(), member.organization.id, paging);
  const rows = paylinks.map(serializePaylink);

  return (
    <>
      <PageHeader
        title="Paylinks"
        description="Reusable payment links at a fixed price: share one, and every buyer who opens it pays through a checkout of their own."
      />
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <ListCard<Row>
          title="All paylinks"
          caption="Paylinks, newest first"
          rows={rows}
          rowKey={(row) => row.id}
          columns={[
            {
              header: "Name",
              cell: (row) => (
                <Link
                  href={`/dashboard/paylinks/${row.id}`}
                  className="block max-w-[14rem] truncate font-medium text-slate-900 hover:text-brand-600 hover:underline sm:max-w-xs"
                >
                  {row.name}
                </Link>
              ),
            },
            { header: "Price", numeric: true, cell: (row) => `${row.amount} ${row.currency}` },
            {
              header: "Status",
              cell: (row) => <StatusBadge status={row.enabled ? "ENABLED" : "DISABLED"} />,
            },
            {
              header: "Created",
              cell: (row) => <DateTime value={row.createdAt} precision="date" />,
            },
          ]}
          emptyTitle="No paylinks yet"
          empty={
            <>
              <p>
                A paylink is a fixed-price link you can paste into an email, a chat or a social post, or print
                as a QR code. Each buyer who opens it gets a fresh checkout at that price, so one link serves
                any number of sales.
              </p>
              <p className="mt-2">
                Selling from your own site or app? Create a checkout session through the API instead: it
                carries your order id, customer and return URLs, and pays for exactly one order.
              </p>
            </>
          }
          paging={{ page: paging.page, rows: paging.rows, total, query: {} }}
        />
        <Card title="New paylink">
          <div className="p-5">
            <CreatePaylinkForm action={createPaylinkAction} />
          </div>
        </Card>
      </div>
    </>
  );
}
