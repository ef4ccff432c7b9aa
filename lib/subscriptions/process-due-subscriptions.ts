import type { Db, Tx } from "../db/client";
import { transactWithEvents } from "../events/transact-with-events";
import type { Invoice, Subscription } from "../generated/prisma/client";
import { log } from "../log";
import { updateInvoiceFromPayments } from "../payments/update-invoice-from-payments";
import { issueRenewalInvoice, type RenewalNotice } from "./issue-renewal-invoice";
import { advanceToPeriod } from "./record-recurring-payment";
import { sendRenewalEmail } from "./send-renewal-email";
import { recordSubscriptionEvent } from "./subscription-events";
import { renewalDeadlineMs } from "./subscription-periods";
import {
  planSubscription,
  recheckMs,
  type SubscriptionEvent,
  transitionSubscription,
} from "./subscription-state";

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

/** Every step due now for one claimed subscription; returns the renewal email to send, if any. */
async function advanceSubscription(tx: Tx, claimed: Claimed, now: Date): Promise<RenewalNotice | null> {
  const { subscriptionGraceDays, ...row } = claimed;
  const graceMs = subscriptionGraceDays * renewalDeadlineMs;
  let subscription: Subscription = row;
  let notice: RenewalNotice | null = null;
  const findRenewal = () =>
    tx.invoice.findUnique({
      where: {
        subscriptionId_periodIndex: {
          subscriptionId: subscription.id,
          periodIndex: subscription.currentPeriodIndex + 1,
        },
      },
    });
  // Kept in memory between steps (re-read only where a step changes it): the bulk of the work is
  // issuing renewals, and every saved round trip counts when thousands fall due at once.
  let renewal: Invoice | null = await findRenewal();
  let plan = planSubscription(subscription, renewal, graceMs, renewalDeadlineMs, now);
  // A few steps at most: e.g. a paid renewal moves the period, and the next one is due at once.
  for (let step = 0; step < 4 && plan.action !== "wait"; step++) {
    if (plan.action === "issue_renewal") {
      const issued = await issueRenewalInvoice(tx, subscription, now);
      renewal = issued.invoice;
      notice = issued.notice;
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
  await tx.subscription.update({ where: { id: subscription.id }, data: { nextActionAt: plan.nextActionAt } });
  return notice;
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
    const notices: RenewalNotice[] = [];
    for (const subscription of claimed) {
      onClaim(subscription.id);
      const notice = await advanceSubscription(tx, subscription, now);
      if (notice) notices.push(notice);
    }
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
