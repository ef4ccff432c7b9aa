import type { Db, Tx } from "../db/client";
import { transactWithEvents } from "../events/transact-with-events";
import type { Invoice, Subscription } from "../generated/prisma/client";
import { log } from "../log";
import { updateInvoiceFromPayments } from "../payments/update-invoice-from-payments";
import { nextRenewalKey } from "../recurring/next-renewal-key";
import { advanceToPeriod } from "../recurring/record-recurring-payment";
import { renewalDeadlineMs } from "../recurring/subscription-periods";
import {
  planSubscription,
  recheckMs,
  type SubscriptionEvent,
  transitionSubscription,
} from "../recurring/subscription-state";
import { issueRenewalInvoices, type RenewalNotice } from "./issue-renewal-invoices";
import { sendRenewalEmail } from "./send-renewal-email";
import { recordSubscriptionEvent } from "./subscription-events";

type Claimed = Subscription & { subscriptionGraceDays: number };

/** Applies a state-machine event the plan called for, with its event, in the caller's transaction. */
async function applyTransition(
  tx: Tx,
  subscription: Subscription,
  event: Exclude<SubscriptionEvent, "renewal_paid" | "cancel_now">,
  renewalId: string | undefined,
  now: Date,
) {
  const next = transitionSubscription(subscription.status, event);
  if (!next.ok) return subscription;
  const updated = await tx.subscription.update({
    where: { id: subscription.id },
    data: {
      status: next.status,
      cancellationReason: next.cancellationReason,
      ...(next.status === "CANCELLED" ? { cancelledAt: now, nextActionAt: null } : {}),
    },
  });
  const invoice = renewalId
    ? await tx.invoice.findUniqueOrThrow({ where: { id: renewalId }, include: { checkoutSession: true } })
    : undefined;
  if (next.emit) await recordSubscriptionEvent(tx, next.emit, updated, invoice);
  return updated;
}

/**
 * Every step due now for one claimed subscription, from its next period's invoice as the batch
 * found or issued it; returns the renewal email to send, if any, and when to look again.
 */
async function advanceSubscription(
  tx: Tx,
  claimed: Claimed,
  initialRenewal: Invoice | null,
  now: Date,
): Promise<{ notice: RenewalNotice | null; nextActionAt: Date | null }> {
  const { subscriptionGraceDays, ...row } = claimed;
  const graceMs = subscriptionGraceDays * renewalDeadlineMs;
  let subscription: Subscription = row;
  let notice: RenewalNotice | null = null;
  const findRenewal = () =>
    tx.invoice.findUnique({
      where: nextRenewalKey(subscription),
    });
  // Kept in memory between steps (re-read only where a step changes it): the bulk of the work is
  // issuing renewals, and every saved round trip counts when thousands fall due at once.
  let renewal = initialRenewal;
  let plan = planSubscription(subscription, renewal, graceMs, renewalDeadlineMs, now);
  // A few steps at most: e.g. a paid renewal moves the period, and the next one is due at once.
  for (let step = 0; step < 4 && plan.action !== "wait"; step++) {
    if (plan.action === "issue_renewal") {
      const issued = await issueRenewalInvoices(tx, [subscription], now);
      renewal = issued.invoices.get(subscription.id) ?? null;
      notice = issued.notices[0] ?? null;
    } else if (plan.action === "renewal_paid" && renewal) {
      subscription = await advanceToPeriod(tx, subscription, renewal.periodIndex ?? 0, now);
      renewal = await findRenewal();
    } else if (plan.action === "renewal_overdue" && renewal && renewal.status !== "OVERDUE") {
      // The deadline job may not have run yet: invoice.overdue comes first, then the subscription's.
      await updateInvoiceFromPayments(tx, renewal.id, now);
      renewal = await findRenewal();
    } else if (plan.action !== "renewal_paid") {
      subscription = await applyTransition(tx, subscription, plan.action, renewal?.id, now);
    }
    plan = planSubscription(subscription, renewal, graceMs, renewalDeadlineMs, now);
  }
  return { notice, nextActionAt: plan.nextActionAt };
}

async function claimAndAdvance(database: Db, limit: number, now: Date, onClaim: (id: string) => void) {
  return transactWithEvents(database, async (tx) => {
    const claimed = await tx.$queryRaw<Claimed[]>`
      SELECT s.*, o."subscriptionGraceDays" FROM "Subscription" s
      JOIN "Organization" o ON o."id" = s."organizationId"
      WHERE s."nextActionAt" <= ${now}
      ORDER BY s."nextActionAt"
      LIMIT ${limit}
      FOR UPDATE OF s SKIP LOCKED`;
    if (claimed.length === 0) return { count: 0, notices: [] };
    // The batch's next-period invoices in one read (two IN lists: a hundred ORed pairs cost Prisma
    // far more to plan); the renewals due are issued together.
    const nextPeriod = new Map(
      claimed.map((subscription) => [subscription.id, subscription.currentPeriodIndex + 1]),
    );
    const found = await tx.invoice.findMany({
      where: {
        subscriptionId: { in: [...nextPeriod.keys()] },
        periodIndex: { in: [...new Set(nextPeriod.values())] },
      },
    });
    const renewals = new Map(
      found
        .filter((invoice) => invoice.periodIndex === nextPeriod.get(invoice.subscriptionId ?? ""))
        .map((invoice) => [invoice.subscriptionId, invoice]),
    );
    const due = claimed.filter((subscription) => {
      const { subscriptionGraceDays, ...row } = subscription;
      const renewal = renewals.get(subscription.id) ?? null;
      const graceMs = subscriptionGraceDays * renewalDeadlineMs;
      return planSubscription(row, renewal, graceMs, renewalDeadlineMs, now).action === "issue_renewal";
    });
    for (const subscription of due) onClaim(subscription.id);
    const issued = await issueRenewalInvoices(
      tx,
      due.map(({ subscriptionGraceDays: _, ...row }) => row),
      now,
    );
    const notices = [...issued.notices];
    const nextActions: { id: string; at: string | null }[] = [];
    for (const subscription of claimed) {
      onClaim(subscription.id);
      const renewal = issued.invoices.get(subscription.id) ?? renewals.get(subscription.id) ?? null;
      const advanced = await advanceSubscription(tx, subscription, renewal, now);
      if (advanced.notice) notices.push(advanced.notice);
      nextActions.push({ id: subscription.id, at: advanced.nextActionAt?.toISOString() ?? null });
    }
    await tx.$executeRaw`
      UPDATE "Subscription" s SET "nextActionAt" = u."at"::timestamptz, "updatedAt" = clock_timestamp()
      FROM unnest(${nextActions.map((next) => next.id)}::text[], ${nextActions.map((next) => next.at)}::text[])
        AS u("id", "at")
      WHERE s."id" = u."id"`;
    return { count: claimed.length, notices };
  });
}

export const subscriptionBatchSize = 100;

/**
 * The subscription scheduler: claims subscriptions whose `nextActionAt` has come (FOR UPDATE SKIP
 * LOCKED, so instances and engines share the work without doubling it), issues renewals, moves
 * overdue ones to PAST_DUE and ends grace periods, in batches of one transaction each; then emails
 * the renewal links. A batch that fails is retried one subscription at a time, and a subscription
 * that fails alone is looked at again later, so one bad row never holds up the rest.
 */
export async function processDueSubscriptions(
  database: Db,
  now = new Date(),
  batchSize = subscriptionBatchSize,
): Promise<number> {
  let processed = 0;
  let size = batchSize;
  for (;;) {
    let current: string | undefined;
    try {
      const batch = await claimAndAdvance(database, size, now, (id) => {
        current = id;
      });
      processed += batch.count;
      for (const notice of batch.notices) await sendRenewalEmail(database, notice);
      if (batch.count === 0 || (batch.count < size && size === batchSize)) return processed;
    } catch (error) {
      if (size > 1) {
        size = 1;
        continue;
      }
      if (!current) throw error;
      log.error({ subscriptionId: current, err: error }, "subscription step failed; retried later");
      await database.subscription.update({
        where: { id: current },
        data: { nextActionAt: new Date(now.getTime() + recheckMs) },
      });
    }
  }
}
