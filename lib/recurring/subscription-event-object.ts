import type { Subscription } from "../generated/prisma/client";

/** The `subscription` object of recurring invoices' events (docs/webhooks.md). */
export type SubscriptionEventObject = {
  id: string;
  status: "ACTIVE" | "PAST_DUE" | "CANCELLED";
  currentPeriodStart: string;
  currentPeriodEnd: string;
  cancelAtPeriodEnd: boolean;
  cancellationReason: "unpaid" | "requested" | null;
  interval: "day" | "week" | "month" | "year";
  intervalCount: number;
};

export function subscriptionEventObject(subscription: Subscription): SubscriptionEventObject {
  return {
    id: subscription.id,
    status: subscription.status,
    currentPeriodStart: subscription.currentPeriodStart.toISOString(),
    currentPeriodEnd: subscription.currentPeriodEnd.toISOString(),
    cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
    cancellationReason: subscription.cancellationReason as SubscriptionEventObject["cancellationReason"],
    interval: subscription.interval,
    intervalCount: subscription.intervalCount,
  };
}
