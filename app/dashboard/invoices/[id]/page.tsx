import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { CopyButton } from "@/components/checkout/copy-button";
import { InvoiceTimeline } from "@/components/dashboard/invoice-timeline";
import { Card } from "@/components/ui/card";
import { DetailList } from "@/components/ui/detail-list";
import { formatDateTime, formatMoney } from "@/components/ui/format";
import { PageHeader } from "@/components/ui/page-header";
import { StatusBadge } from "@/components/ui/status-badge";
import { db } from "@/lib/db/client";
import { ServiceError } from "@/lib/errors";
import { requireMember } from "@/lib/http/dashboard-session";
import { getInvoiceTimeline } from "@/lib/payments/get-invoice-timeline";

export const metadata: Metadata = { title: "Invoice" };

export default async function InvoicePage({ params }: { params: Promise<{ id: string }> }) {
  const member = await requireMember();
  const { id } = await params;
  const timeline = await getInvoiceTimeline(db(), member.organization.id, id).catch((error) => {
    if (error instanceof ServiceError && error.status === 404) notFound();
    throw error;
  });
  const { invoice } = timeline;
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
              ["Amount due", `${invoice.amountDue.toString()} ${invoice.token}`],
              ["Amount paid", `${invoice.amountPaid.toString()} ${invoice.token}`],
              ["Rate", `${invoice.rate.toString()} ${invoice.token} per ${invoice.pricingCurrency}`],
              ["Network", invoice.network],
              [
                "Deposit address",
                <span key="address" className="flex items-center gap-2">
                  <span className="break-all font-mono text-xs">{invoice.depositAddress}</span>
                  <CopyButton value={invoice.depositAddress} label="deposit address" />
                </span>,
              ],
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
      </div>
    </>
  );
}
