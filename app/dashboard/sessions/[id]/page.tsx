import type { Metadata } from "next";
import Link from "next/link";
import { CopyButton } from "@/components/checkout/copy-button";
import { CodeBlock } from "@/components/code-block";
import { InvoiceTimeline } from "@/components/dashboard/invoice-timeline";
import { Card } from "@/components/ui/card";
import { DetailList } from "@/components/ui/detail-list";
import { formatDateTime, formatMoney } from "@/components/ui/format";
import { PageHeader } from "@/components/ui/page-header";
import { StatusBadge } from "@/components/ui/status-badge";
import { getCheckoutSession } from "@/lib/checkout/get-checkout-session";
import { serializeCheckoutSessionDetail } from "@/lib/checkout/serialize-checkout-session";
import { db } from "@/lib/db/client";
import { requireMember } from "@/lib/http/dashboard-session";
import { orNotFound } from "@/lib/http/or-not-found";
import { getInvoiceTimeline } from "@/lib/payments/get-invoice-timeline";

export const metadata: Metadata = { title: "Checkout session" };

export default async function SessionPage({ params }: { params: Promise<{ id: string }> }) {
  const member = await requireMember();
  const { id } = await params;
  // The same view the merchant API returns, so the dashboard never shows another truth.
  const session = serializeCheckoutSessionDetail(
    await orNotFound(getCheckoutSession(db(), member.organization.id, id)),
  );
  const timeline = session.payment
    ? await getInvoiceTimeline(db(), member.organization.id, session.payment.invoiceId)
    : null;
  const metadataEntries = Object.keys(session.metadata).length;
  return (
    <>
      <PageHeader
        back={{ href: "/dashboard/sessions", label: "Checkout sessions" }}
        title={<span className="font-mono text-xl">{session.id}</span>}
        actions={<StatusBadge status={session.status} />}
      />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-5">
        <div className="flex flex-col gap-6 lg:col-span-3">
          <Card title="Details">
            <DetailList
              items={[
                ["Amount", formatMoney(session.amount, session.currency)],
                ["Description", session.description],
                ["Order", session.merchantOrderId],
                ["Client reference", session.clientReferenceId],
                [
                  "Customer",
                  [session.customerName, session.customerEmail].filter(Boolean).join(" · ") || null,
                ],
                [
                  "Checkout URL",
                  <span key="url" className="flex items-center gap-2">
                    <a className="break-all text-brand-600 hover:underline" href={session.url}>
                      {session.url}
                    </a>
                    <CopyButton value={session.url} label="Copy checkout URL" />
                  </span>,
                ],
                [
                  "Paylink",
                  session.paylinkId ? (
                    <Link
                      key="paylink"
                      className="text-brand-600 hover:underline"
                      href={`/dashboard/paylinks/${session.paylinkId}`}
                    >
                      {session.paylinkId}
                    </Link>
                  ) : null,
                ],
                ["Success URL", session.successUrl],
                ["Cancel URL", session.cancelUrl],
                ["Created", formatDateTime(session.createdAt)],
                ["Expires", formatDateTime(session.expiresAt)],
              ]}
            />
          </Card>
          {metadataEntries > 0 ? (
            <Card title="Metadata">
              <div className="p-5">
                <CodeBlock>{JSON.stringify(session.metadata, null, 2)}</CodeBlock>
              </div>
            </Card>
          ) : null}
        </div>
        <Card
          title="Payment"
          className="lg:col-span-2"
          actions={
            session.payment ? (
              <Link
                className="text-sm font-medium text-brand-600 hover:underline"
                href={`/dashboard/invoices/${session.payment.invoiceId}`}
              >
                Invoice
              </Link>
            ) : null
          }
        >
          {timeline ? (
            <InvoiceTimeline {...timeline} />
          ) : (
            <p className="px-5 py-6 text-sm text-slate-500">
              The buyer has not started paying. An invoice appears here once they choose a token on the
              checkout page.
            </p>
          )}
        </Card>
      </div>
    </>
  );
}
