import type { Prisma, Subscription } from "../generated/prisma/client";

/** The unique key of the invoice that renews a subscription into its next period (one per period). */
export function nextRenewalKey(
  subscription: Pick<Subscription, "id" | "currentPeriodIndex">,
): Prisma.InvoiceWhereUniqueInput {
  return {
    subscriptionId_periodIndex: {
      subscriptionId: subscription.id,
      periodIndex: subscription.currentPeriodIndex + 1,
    },
  };
}
