import {
  type EventSource,
  metadata,
  minorUnits,
  type SubscriptionSource,
  unixSeconds,
} from "./stripe-event-source";

/** Stripe's Invoice object of a subscription's period, from our event payload. */
export function invoiceObject(
  source: EventSource & { subscription: SubscriptionSource },
  created: number,
  status: "open" | "paid",
) {
  const amount = minorUnits(source.amount, source.currency) ?? 0;
  const paid = status === "paid" ? amount : 0;
  const { subscription } = source;
  return {
    id: source.invoiceId,
    object: "invoice" as const,
    amount_due: amount,
    amount_paid: paid,
    amount_remaining: amount - paid,
    billing_reason: "subscription" as const,
    // The buyer pushes each payment, as with Stripe's emailed invoices; nothing is charged.
    collection_method: "send_invoice" as const,
    created,
    currency: source.currency.toLowerCase(),
    customer: null,
    customer_email: source.customer.email ?? null,
    customer_name: source.customer.name ?? null,
    livemode: source.livemode,
    metadata: metadata(source),
    parent: {
      type: "subscription_details" as const,
      quote_details: null,
      subscription_details: { metadata: metadata(source), subscription: subscription.id },
    },
    period_start: unixSeconds(subscription.currentPeriodStart),
    period_end: unixSeconds(subscription.currentPeriodEnd),
    status,
    // Where API versions before 2025-03-31 put it; handlers written for them still read it.
    subscription: subscription.id,
    subtotal: amount,
    total: amount,
  };
}
