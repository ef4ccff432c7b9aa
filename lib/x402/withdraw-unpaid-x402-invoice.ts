import type { Db } from "../db/client";
import { transactWithEvents } from "../events/transact-with-events";
import type { X402Settlement } from "../generated/prisma/client";
import { updateInvoiceFromPayments } from "../payments/update-invoice-from-payments";
import { transitionSession } from "../session-state/session-state";

/**
 * A paylink's session and invoice exist only for its x402 payment: when that failed they are
 * withdrawn (the session expires, the invoice is overdue at once), so nothing waits to be paid. A
 * merchant's session keeps its invoice open: the buyer may still pay it, over x402 or the page.
 */
export async function withdrawUnpaidX402Invoice(database: Db, settlement: X402Settlement, now: Date) {
  if (settlement.resourceKind !== "paylink") return;
  await transactWithEvents(database, async (tx) => {
    const invoice = await tx.invoice.findUniqueOrThrow({
      where: { id: settlement.invoiceId },
      include: { checkoutSession: true },
    });
    const withdrawn = transitionSession(invoice.checkoutSession, "withdraw", now);
    if (withdrawn.ok)
      await tx.checkoutSession.update({
        where: { id: invoice.checkoutSessionId },
        data: { status: withdrawn.status, expiresAt: now },
      });
    if (invoice.deadline > now)
      await tx.invoice.update({ where: { id: invoice.id }, data: { deadline: now } });
    await updateInvoiceFromPayments(tx, invoice.id, now);
  });
}
