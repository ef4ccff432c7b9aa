import type { Tx } from "../db/client";
import type { CheckoutSession, Invoice, Prisma, Subscription } from "../generated/prisma/client";
import { newId } from "../ids";
import { nextRenewalKey } from "./next-renewal-key";
import { periodBounds, renewalDeadlineMs } from "./subscription-periods";
import { planSubscription, transitionSubscription } from "./subscription-state";

/**
 * Locks the subscription of a renewal invoice before the invoice row is written, so the watcher
 * and the scheduler (which claims subscriptions first) always lock in the same order.
 */
export async function lockSubscriptionOf(tx: Tx, invoice: Pick<Invoice, "subscriptionId">) {
  if (invoice.subscriptionId)
    await tx.$queryRaw`SELECT 1 FROM "Subscription" WHERE "id" = ${invoice.subscriptionId} FOR UPDATE`;
}

/** When the scheduler should next look at the subscription, from its state and open renewal. */
export async function nextActionAt(tx: Tx, subscription: Subscription, now: Date): Promise<Date | null> {
  const organization = await tx.organization.findUniqueOrThrow({
    where: { id: subscription.organizationId },
    select: { subscriptionGraceDays: true },
  });
  const renewal = await tx.invoice.findUnique({
    where: nextRenewalKey(subscription),
    select: { status: true, deadline: true },
  });
  const graceMs = organization.subscriptionGraceDays * renewalDeadlineMs;
  return planSubscription(subscription, renewal, graceMs, renewalDeadlineMs, now).nextActionAt;
}

/** The renewal for `periodIndex` was paid: that period becomes current (from the anchor, no drift). */
export async function advanceToPeriod(tx: Tx, subscription: Subscription, periodIndex: number, now: Date) {
  const next = transitionSubscription(subscription.status, "renewal_paid");
  if (!next.ok || periodIndex <= subscription.currentPeriodIndex) return subscription;
  const bounds = periodBounds(
    subscription.anchor,
    subscription.interval,
    subscription.intervalCount,
    periodIndex,
  );
  const advanced = {
    ...subscription,
    status: next.status,
    currentPeriodIndex: periodIndex,
    currentPeriodStart: bounds.start,
    currentPeriodEnd: bounds.end,
  };
  return tx.subscription.update({
    where: { id: subscription.id },
    data: {
      status: advanced.status,
      currentPeriodIndex: periodIndex,
      currentPeriodStart: bounds.start,
      currentPeriodEnd: bounds.end,
      nextActionAt: await nextActionAt(tx, advanced, now),
    },
  });
}

/**
 * A recurring invoice was confirmed (inside the watcher's transaction): the first one starts the
 * subscription (anchored now), a renewal moves it to the period paid for. A payment completing a
 * renewal of a cancelled subscription changes nothing here; the invoice reports it as late.
 */
export async function recordRecurringPayment(
  tx: Tx,
  invoice: Invoice,
  session: CheckoutSession,
  now: Date,
): Promise<Subscription | null> {
  if (invoice.subscriptionId) {
    const subscription = await tx.subscription.findUniqueOrThrow({ where: { id: invoice.subscriptionId } });
    return advanceToPeriod(tx, subscription, invoice.periodIndex ?? 0, now);
  }
  if (!session.recurringInterval || !session.recurringIntervalCount) return null;
  const bounds = periodBounds(now, session.recurringInterval, session.recurringIntervalCount, 0);
  const subscription: Subscription = {
    id: newId("subscription"),
    organizationId: invoice.organizationId,
    status: "ACTIVE",
    paylinkId: session.paylinkId,
    amount: session.amount,
    currency: session.currency,
    description: session.description,
    interval: session.recurringInterval,
    intervalCount: session.recurringIntervalCount,
    network: invoice.network,
    token: invoice.token,
    customerEmail: session.customerEmail,
    customerName: session.customerName,
    clientReferenceId: session.clientReferenceId,
    merchantOrderId: session.merchantOrderId,
    metadata: session.metadata,
    anchor: now,
    currentPeriodIndex: 0,
    currentPeriodStart: bounds.start,
    currentPeriodEnd: bounds.end,
    cancelAtPeriodEnd: false,
    cancellationReason: null,
    cancelledAt: null,
    nextActionAt: null,
    createdAt: now,
    updatedAt: now,
  };
  const created = await tx.subscription.create({
    data: {
      ...subscription,
      metadata: subscription.metadata as Prisma.InputJsonObject,
      nextActionAt: await nextActionAt(tx, subscription, now),
    },
  });
  await tx.invoice.update({
    where: { id: invoice.id },
    data: { subscriptionId: created.id, periodIndex: 0, periodStart: bounds.start, periodEnd: bounds.end },
  });
  return created;
}
