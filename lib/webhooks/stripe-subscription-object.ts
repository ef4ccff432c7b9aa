import {
  type EventSource,
  metadata,
  minorUnits,
  type SubscriptionSource,
  unixSeconds,
} from "./stripe-event-source";

// Stripe's Subscription object, from our event payload.

const subscriptionStatuses = { ACTIVE: "active", PAST_DUE: "past_due", CANCELLED: "canceled" } as const;
const cancellationReasons = { unpaid: "payment_failed", requested: "cancellation_requested" } as const;

export function subscriptionObject(
  source: EventSource & { subscription: SubscriptionSource },
  created: number,
) {
  const { subscription } = source;
  const periodStart = unixSeconds(subscription.currentPeriodStart);
  const periodEnd = unixSeconds(subscription.currentPeriodEnd);
  const cancelled = subscription.status === "CANCELLED";
  const currency = source.currency.toLowerCase();
  return {
    id: subscription.id,
    object: "subscription" as const,
    cancel_at_period_end: subscription.cancelAtPeriodEnd,
    canceled_at: cancelled ? created : null,
    cancellation_details: {
      comment: null,
      feedback: null,
      reason: subscription.cancellationReason ? cancellationReasons[subscription.cancellationReason] : null,
    },
    collection_method: "send_invoice" as const,
    currency,
    // Where API versions before 2025-03-31 put the period; newer ones read it from the item.
    current_period_start: periodStart,
    current_period_end: periodEnd,
    ended_at: cancelled ? created : null,
    items: {
      object: "list" as const,
      data: [
        {
          object: "subscription_item" as const,
          current_period_start: periodStart,
          current_period_end: periodEnd,
          price: {
            object: "price" as const,
            currency,
            recurring: { interval: subscription.interval, interval_count: subscription.intervalCount },
            type: "recurring" as const,
            unit_amount: minorUnits(source.amount, source.currency),
          },
          quantity: 1,
          subscription: subscription.id,
        },
      ],
      has_more: false,
    },
    latest_invoice: source.invoiceId,
    livemode: source.livemode,
    metadata: metadata(source),
    status: subscriptionStatuses[subscription.status],
  };
}
