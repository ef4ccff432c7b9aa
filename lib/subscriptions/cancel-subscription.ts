import type { AlongsideWork, Db } from "../db/client";
import { conflict, notFound } from "../errors";
import { transactWithEvents } from "../events/transact-with-events";
import type { Subscription } from "../generated/prisma/client";
import { nextActionAt } from "../recurring/record-recurring-payment";
import { transitionSubscription } from "../recurring/subscription-state";
import { recordSubscriptionEvent } from "./subscription-events";
import { withdrawOpenRenewal } from "./withdraw-open-renewal";

/**
 * The merchant cancels: now (subscription.cancelled, reason requested), or at the end of the
 * paid period (no further renewal; the scheduler cancels it then). A past-due subscription has no
 * paid period left, so either way it ends now. Either way the next period will not come, so a
 * renewal already issued for it is withdrawn at once. Returns the subscription with its invoices.
 */
export async function cancelSubscription(
  database: Db,
  organizationId: string,
  input: { id: string; atPeriodEnd: boolean },
  options: { now?: Date; alongside?: AlongsideWork } = {},
) {
  const now = options.now ?? new Date();
  await transactWithEvents(database, async (tx) => {
    await options.alongside?.(tx);
    const [subscription] = await tx.$queryRaw<Subscription[]>`
      SELECT * FROM "Subscription" WHERE "id" = ${input.id} AND "organizationId" = ${organizationId} FOR UPDATE`;
    if (!subscription) throw notFound("subscription");
    if (subscription.status === "CANCELLED")
      throw conflict("subscription_cancelled", "This subscription is already cancelled.");
    await withdrawOpenRenewal(tx, subscription, now);
    if (input.atPeriodEnd && subscription.status === "ACTIVE") {
      const pending = { ...subscription, cancelAtPeriodEnd: true };
      await tx.subscription.update({
        where: { id: subscription.id },
        data: { cancelAtPeriodEnd: true, nextActionAt: await nextActionAt(tx, pending, now) },
      });
      return;
    }
    const next = transitionSubscription(subscription.status, "cancel_now");
    if (!next.ok) return;
    const cancelled = await tx.subscription.update({
      where: { id: subscription.id },
      data: {
        status: next.status,
        cancellationReason: next.cancellationReason,
        cancelledAt: now,
        nextActionAt: null,
      },
    });
    if (next.emit) await recordSubscriptionEvent(tx, next.emit, cancelled);
  });
  return database.subscription.findUniqueOrThrow({
    where: { id: input.id },
    include: { invoices: { orderBy: { periodIndex: "desc" } } },
  });
}
