import type { Metadata } from "next";
import Link from "next/link";
import { Card } from "@/components/ui/card";
import { ConfirmAction } from "@/components/ui/confirm-action";
import { DetailList } from "@/components/ui/detail-list";
import { formatDateTime, formatMoney } from "@/components/ui/format";
import { PageHeader } from "@/components/ui/page-header";
import { StatusBadge } from "@/components/ui/status-badge";
import { checkoutUrl, networkName } from "@/lib/config";
import { db } from "@/lib/db/client";
import { requireMember } from "@/lib/http/dashboard-session";
import { orNotFound } from "@/lib/http/or-not-found";
import { formatTokenAmount } from "@/lib/money/format-token-amount";
import { getSubscription } from "@/lib/subscriptions/get-subscription";
import { describeInterval } from "@/lib/subscriptions/serialize-recurring";
import { cancelSubscriptionAction } from "../actions";

export const metadata: Metadata = { title: "Subscription" };

export default async function SubscriptionPage({ params }: { params: Promise<{ id: string }> }) {
  const member = await requireMember();
  const { id } = await params;
  const subscription = await orNotFound(getSubscription(db(), member.organization.id, id));
  const live = subscription.status !== "CANCELLED";
  const canCancel = live && member.role === "OWNER";
  return (
    <>
      <PageHeader
        back={{ href: "/dashboard/subscriptions", label: "Subscriptions" }}
        title={<span className="font-mono text-xl">{subscription.id}</span>}
        actions={<StatusBadge status={subscription.status} />}
      />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-5">
        <Card title="Details" className="lg:col-span-3">
          <DetailList
            items={[
              [
                "Price",
                `${formatMoney(subscription.amount, subscription.currency)} ${describeInterval(subscription.interval, subscription.intervalCount)}`,
              ],
              ["Paid in", `${subscription.token} on ${networkName(subscription.network)}`],
              ["Customer", subscription.customerEmail ?? subscription.clientReferenceId],
              [
                "Current period",
                `${formatDateTime(subscription.currentPeriodStart)} → ${formatDateTime(subscription.currentPeriodEnd)}`,
              ],
              ["Anchor", formatDateTime(subscription.anchor)],
              [
                "Cancellation",
                subscription.cancelledAt
                  ? `${formatDateTime(subscription.cancelledAt)} (${subscription.cancellationReason === "unpaid" ? "unpaid after the grace period" : "by the merchant"})`
                  : subscription.cancelAtPeriodEnd
                    ? `At the end of the period (${formatDateTime(subscription.currentPeriodEnd)})`
                    : null,
              ],
            ]}
          />
          {canCancel ? (
            <div className="flex flex-wrap gap-2 border-t border-slate-100 px-5 py-4">
              {subscription.status === "ACTIVE" && !subscription.cancelAtPeriodEnd ? (
                <ConfirmAction
                  action={cancelSubscriptionAction}
                  label="Cancel at period end"
                  question={`No renewal is issued; the subscription ends on ${formatDateTime(subscription.currentPeriodEnd)}.`}
                  confirmLabel="Yes, cancel at period end"
                  fields={{ id: subscription.id, atPeriodEnd: "true" }}
                />
              ) : null}
              <ConfirmAction
                action={cancelSubscriptionAction}
                label="Cancel now"
                question="The subscription ends now and no further invoices are issued."
                confirmLabel="Yes, cancel now"
                fields={{ id: subscription.id, atPeriodEnd: "false" }}
              />
            </div>
          ) : null}
        </Card>
        <Card title="Periods" className="lg:col-span-2">
          <ol aria-label="Periods and invoices" className="divide-y divide-slate-100">
            {subscription.invoices.map((invoice) => (
              <li key={invoice.id} className="flex flex-col gap-1 px-5 py-3 text-sm">
                <span className="flex items-center justify-between gap-2">
                  <span className="font-medium text-slate-900">
                    {invoice.periodIndex === 0 ? "First payment" : `Renewal ${invoice.periodIndex}`}
                  </span>
                  <StatusBadge status={invoice.status} />
                </span>
                <span className="text-slate-600">
                  {invoice.periodStart ? formatDateTime(invoice.periodStart) : "—"} →{" "}
                  {invoice.periodEnd ? formatDateTime(invoice.periodEnd) : "—"}
                </span>
                <span className="text-slate-600">
                  {formatTokenAmount(invoice.network, invoice.token, invoice.amountPaid)} /{" "}
                  {formatTokenAmount(invoice.network, invoice.token, invoice.amountDue)} {invoice.token} · due{" "}
                  {formatDateTime(invoice.deadline)}
                </span>
                <span className="flex gap-3">
                  <Link
                    className="font-mono text-xs text-brand-600 hover:underline"
                    href={`/dashboard/invoices/${invoice.id}`}
                  >
                    {invoice.id}
                  </Link>
                  {invoice.status === "CONFIRMED" ? null : (
                    <a
                      className="text-xs text-brand-600 hover:underline"
                      href={checkoutUrl(invoice.checkoutSessionId)}
                    >
                      Payment page
                    </a>
                  )}
                </span>
              </li>
            ))}
          </ol>
        </Card>
      </div>
    </>
  );
}
