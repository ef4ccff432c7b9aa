import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { ExplorerValue } from "@/components/dashboard/explorer-value";
import { InvoiceTimeline } from "@/components/dashboard/invoice-timeline";
import { refundColumns } from "@/components/dashboard/refund-columns";
import { RefundForm } from "@/components/dashboard/refund-form";
import { ReadOnlyNote } from "@/components/dashboard/settings/read-only-note";
import { SignedTransactions } from "@/components/dashboard/sweep-transactions";
import { Card } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { DetailList } from "@/components/ui/detail-list";
import { formatDateTime, formatMoney } from "@/components/ui/format";
import { PageHeader } from "@/components/ui/page-header";
import { StatusBadge } from "@/components/ui/status-badge";
import { networkName } from "@/lib/config";
import { db } from "@/lib/db/client";
import { requireMember } from "@/lib/http/dashboard-session";
import { orNotFound } from "@/lib/http/or-not-found";
import { formatTokenAmount } from "@/lib/money/format-token-amount";
import { getInvoiceTimeline } from "@/lib/payments/get-invoice-timeline";
import { listRefunds } from "@/lib/refunds/list-refunds";
import { listRefundsQuery } from "@/lib/refunds/refund-schemas";
import { listSweeps, sweepListQuery } from "@/lib/sweeps/list-sweeps";
import { createRefundAction } from "../../refunds/actions";

const refundTable = refundColumns({ withInvoice: false });

export const metadata: Metadata = { title: "Invoice" };

export default async function InvoicePage({ params }: { params: Promise<{ id: string }> }) {
  const member = await requireMember();
  const { id } = await params;
  const timeline = await orNotFound(getInvoiceTimeline(db(), member.organization.id, id));
  const [{ sweeps }, { refunds }] = await Promise.all([
    listSweeps(db(), member.organization.id, sweepListQuery.parse({ invoiceId: id })),
    listRefunds(db(), member.organization.id, listRefundsQuery.parse({ invoiceId: id, rows: 100 })),
  ]);
  const { invoice } = timeline;
  const tokens = (value: { toString(): string }) =>
    `${formatTokenAmount(invoice.network, invoice.token, value)} ${invoice.token}`;
  return (
    <>
      <PageHeader
        back={{ href: "/dashboard/invoices", label: "Invoices" }}
        title={<span className="font-mono text-xl">{invoice.id}</span>}
        actions={<StatusBadge status={invoice.status} />}
      />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-5">
        <Card title="Details" className="lg:col-span-3">
          <DetailList
            items={[
              ["Price", formatMoney(invoice.pricingAmount, invoice.pricingCurrency)],
              ["Amount due", tokens(invoice.amountDue)],
              ["Amount paid", tokens(invoice.amountPaid)],
              ["In USD", formatMoney(invoice.amountUsd, "USD")],
              ["Rate", `${invoice.rate.toString()} ${invoice.token} per ${invoice.pricingCurrency}`],
              ["Quoted", `${formatDateTime(invoice.quotedAt)} from ${invoice.quoteSource}`],
              [
                "Quote held until",
                invoice.quoteExpiresAt ? formatDateTime(invoice.quoteExpiresAt) : "no rate (1:1)",
              ],
              ["Network", networkName(invoice.network)],
              [
                "Deposit address",
                <ExplorerValue
                  key="address"
                  network={invoice.network}
                  kind="address"
                  value={invoice.depositAddress}
                />,
              ],
              // A Solana Pay invoice shares its deposit address and is told apart by this key.
              ...(invoice.reference
                ? [
                    [
                      "Reference",
                      <ExplorerValue
                        key="reference"
                        network={invoice.network}
                        kind="address"
                        value={invoice.reference}
                      />,
                    ] satisfies [string, ReactNode],
                  ]
                : []),
              ["Deadline", formatDateTime(invoice.deadline)],
              [
                "Checkout session",
                <Link
                  key="session"
                  className="font-mono text-xs text-brand-600 hover:underline"
                  href={`/dashboard/sessions/${invoice.checkoutSessionId}`}
                >
                  {invoice.checkoutSessionId}
                </Link>,
              ],
              ["Order", invoice.checkoutSession.merchantOrderId],
              ["Customer", invoice.checkoutSession.customerEmail],
            ]}
          />
        </Card>
        <Card title="Timeline" className="lg:col-span-2">
          <InvoiceTimeline {...timeline} />
        </Card>
        <Card title="Settlement" className="lg:col-span-5">
          {sweeps.length === 0 ? (
            <p className="px-5 py-4 text-sm text-slate-500">
              Not swept: funds are on the deposit address until their payment is confirmed and a settlement
              wallet is set for {networkName(timeline.invoice.network)}.
            </p>
          ) : (
            <ul className="divide-y divide-slate-100">
              {sweeps.map((sweep) => (
                <li key={sweep.id} className="flex flex-wrap items-start gap-4 px-5 py-3 text-sm">
                  <StatusBadge status={sweep.status} />
                  <span>
                    {sweep.amount.toString()} {sweep.token} to{" "}
                    <ExplorerValue network={sweep.network} kind="address" value={sweep.toAddress} />
                  </span>
                  {sweep.failureReason ? (
                    <span className="text-xs text-slate-500">{sweep.failureReason}</span>
                  ) : null}
                  <SignedTransactions sweep={sweep} />
                </li>
              ))}
            </ul>
          )}
        </Card>
        <Card
          title="Refunds"
          description="Sent on chain from the network's refund wallet (see Settlement)."
          className="lg:col-span-5"
        >
          {refunds.length === 0 ? (
            <p className="px-5 py-4 text-sm text-slate-600">No refunds of this invoice.</p>
          ) : (
            <DataTable
              caption="Refunds of this invoice"
              columns={refundTable}
              rows={refunds}
              rowKey={(r) => r.id}
            />
          )}
          <div className="border-t border-slate-100 p-5">
            {member.role === "OWNER" ? (
              <RefundForm
                action={createRefundAction}
                invoiceId={invoice.id}
                token={invoice.token}
                network={networkName(invoice.network)}
              />
            ) : (
              <ReadOnlyNote organization={member.organization.name} />
            )}
          </div>
        </Card>
      </div>
    </>
  );
}
