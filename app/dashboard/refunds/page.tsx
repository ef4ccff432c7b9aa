import { refundStatusValues } from "crypto-checkout-agent/shapes";
import type { Metadata } from "next";
import { ExportCsvForm } from "@/components/dashboard/export-csv-form";
import { ListCard } from "@/components/dashboard/list-card";
import { ListFilters } from "@/components/dashboard/list-filters";
import { refundColumns } from "@/components/dashboard/refund-columns";
import { PageHeader } from "@/components/ui/page-header";
import { db } from "@/lib/db/client";
import { requireMember } from "@/lib/http/dashboard-session";
import { listRefunds } from "@/lib/refunds/list-refunds";
import { listRefundsQuery } from "@/lib/refunds/refund-schemas";
import { readPageQuery } from "@/lib/validation/read-page-query";

export const metadata: Metadata = { title: "Refunds" };

const columns = refundColumns({ withInvoice: true });

export default async function RefundsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const member = await requireMember();
  const query = readPageQuery(listRefundsQuery, await searchParams);
  const { refunds, total } = await listRefunds(db(), member.organization.id, query);
  const filtered = Boolean(query.status || query.invoiceId);
  return (
    <>
      <PageHeader
        title="Refunds"
        description="Money given back on chain from each network's refund wallet. Start one from an invoice."
        actions={<ExportCsvForm report="refunds" label="Export refunds as CSV" />}
      />
      <ListCard
        filters={<ListFilters statuses={refundStatusValues} status={query.status} />}
        caption="Refunds, newest first"
        columns={columns}
        rows={refunds}
        rowKey={(r) => r.id}
        emptyTitle={filtered ? "No refunds match" : "No refunds yet"}
        empty={
          filtered
            ? "Try another status or clear the filters."
            : "Open a paid invoice and refund it to the payer, through a claim link, or to an address."
        }
        paging={{
          page: query.page,
          rows: query.rows,
          total,
          query: { status: query.status, invoiceId: query.invoiceId },
        }}
      />
    </>
  );
}
