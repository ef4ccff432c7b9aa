import type { Tx } from "../db/client";
import type { InvoiceStatus, Subscription } from "../generated/prisma/client";
import { updateInvoiceFromPayments } from "../payments/update-invoice-from-payments";
import { nextRenewalKey } from "../recurring/next-renewal-key";
import { transitionSession } from "../session-state/session-state";

// A renewal the customer could still pay into. A confirming one was paid in full and is left to
// confirm (a payment completing a cancelled subscription's renewal is reported as late).
const payable: InvoiceStatus[] = ["AWAITING_PAYMENT", "PARTIALLY_PAID", "OVERDUE"];

/**
 * A subscription that ends, now or at its period end, has no next period to pay for: its open
 * renewal's checkout session expires, so no payment starts on it, and the invoice's deadline
 * becomes now, so it is overdue (invoice.overdue, once) and the hosted page stops asking for
 * money. In the caller's transaction, which holds the subscription's lock.
 */
export async function withdrawOpenRenewal(tx: Tx, subscription: Subscription, now: Date) {
  const renewal = await tx.invoice.findUnique({
    where: nextRenewalKey(subscription),
    include: { checkoutSession: true },
  });
  if (!renewal || !payable.includes(renewal.status)) return;
  const session = renewal.checkoutSession;
  const withdrawn = transitionSession(session, "withdraw", now);
  if (withdrawn.ok) {
    await tx.checkoutSession.update({
      where: { id: session.id },
      data: { status: withdrawn.status, expiresAt: session.expiresAt < now ? session.expiresAt : now },
    });
  }
  if (renewal.deadline > now) await tx.invoice.update({ where: { id: renewal.id }, data: { deadline: now } });
  await updateInvoiceFromPayments(tx, renewal.id, now);
}
