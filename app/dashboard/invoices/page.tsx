import type { Metadata } from "next";
import Link from "next/link";
import { ExportCsvForm } from "@/components/dashboard/export-csv-form";
import { ListCard } from "@/components/dashboard/list-card";
import { ListFilters } from "@/components/dashboard/list-filters";
import type { Column } from "@/components/ui/data-table";
import { formatDateTime, formatMoney } from "@/components/ui/format";
import { PageHeader } from "@/components/ui/page-header";
import { StatusBadge } from "@/components/ui/status-badge";
import { TokenAmount } from "@/components/ui/token-amount";
import { networkName } from "@/lib/config";
import { db } from "@/lib/db/client";
import { requireMember } from "@/lib/http/dashboard-session";
import { invoiceStatuses } from "@/lib/payments/invoice-state";
import { invoiceListQuery, listInvoices } from "@/lib/payments/list-invoices";
import { readPageQuery } from "@/lib/validation/read-page-query";

export const metadata: Metadata = { title: "Invoices" };

type Row = Awaited<ReturnType<typeof listInvoices>>["invoices"][number];

const columns: Column<Row>[] = [
  {
    header: "Invoice",
    cell: (invoice) => (
      <Link
        className="font-mono text-xs font-medium text-brand-600 hover:underline"
        href={`/dashboard/invoices/${invoice.id}`}
      >
        {invoice.id}
      </Link>
    ),
  },
  {
    header: "Price",
    numeric: true,
    cell: (invoice) => formatMoney(invoice.pricingAmount, invoice.pricingCurrency),
  },
  { header: "Status", cell: (invoice) => <StatusBadge status={invoice.status} /> },
  {
    header: "Paid",
    numeric: true,
    cell: (invoice) => (
      <>
        <TokenAmount amount={invoice.amountPaid} symbol={invoice.token} network={invoice.network} /> /{" "}
        <TokenAmount amount={invoice.amountDue} symbol={invoice.token} network={invoice.network} />
      </>
    ),
  },
  { header: "Network", cell: (invoice) => networkName(invoice.network) },
  { header: "Order", cell: (invoice) => invoice.checkoutSession.merchantOrderId ?? "—" },
  { header: "Created", cell: (invoice) => formatDateTime(invoice.createdAt) },
];

export default async function InvoicesPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const member = await requireMember();
  const query = readPageQuery(invoiceListQuery, await searchParams);
  const { invoices, total } = await listInvoices(db(), member.organization.id, query);
  const filtered = Boolean(query.status || query.q || query.network);
  return (
    <>
      <PageHeader
        title="Invoices"
        description="Created when a buyer starts paying; confirmed on chain. The CSV has one row per invoice confirmed in the range."
        actions={<ExportCsvForm report="payments" label="Export confirmed payments as CSV" />}
      />
      <ListCard
        filters={
          <ListFilters
            statuses={invoiceStatuses}
            status={query.status}
            q={query.q}
            searchLabel="Invoice, session, order id or address"
          />
        }
        caption="Invoices"
        columns={columns}
        rows={invoices}
        rowKey={(invoice) => invoice.id}
        emptyTitle={filtered ? "No invoices match" : "No invoices yet"}
        empty={
          filtered
            ? "Try another status or clear the filters."
            : "An invoice appears when a buyer chooses how to pay on a hosted checkout page."
        }
        paging={{
          page: query.page,
          rows: query.rows,
          total,
          query: { status: query.status, q: query.q, network: query.network },
        }}
      />
    </>
  );
}
