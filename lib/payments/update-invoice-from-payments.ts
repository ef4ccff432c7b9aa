import type { Tx } from "../db/client";
import { recordEvent } from "../events/record-event";
import { serializeInvoiceEvent } from "../events/serialize-invoice-event";
import { Money } from "../money/decimal";
import { recordReceiptEmail } from "../receipts/record-receipt-email";
import { lockSubscriptionOf, recordRecurringPayment } from "../recurring/record-recurring-payment";
import { subscriptionEventObject } from "../recurring/subscription-event-object";
import { refundOverpayment } from "../refunds/refund-overpayment";
import { nextInvoiceState } from "./invoice-state";

/**
 * Recomputes an invoice from its counted payments with the pure state machine, stores the
 * result, and records payment.confirmed / invoice.overdue in the same transaction. The update is
 * conditional on the status read, so two watchers cannot both emit an event.
 */
export async function updateInvoiceFromPayments(tx: Tx, invoiceId: string, now: Date) {
  const invoice = await tx.invoice.findUniqueOrThrow({
    where: { id: invoiceId },
    include: { payments: true, checkoutSession: true, subscription: true },
  });
  await lockSubscriptionOf(tx, invoice);
  const sum = (status: "CONFIRMED" | "CONFIRMING") =>
    invoice.payments
      .filter((payment) => payment.status === status)
      .reduce((total, payment) => total.plus(payment.amount.toString()), new Money(0));
  const next = nextInvoiceState(
    invoice,
    { confirmed: sum("CONFIRMED").toString(), confirming: sum("CONFIRMING").toString() },
    now,
  );
  const { count } = await tx.invoice.updateMany({
    where: { id: invoice.id, status: invoice.status },
    data: {
      status: next.status,
      amountPaid: next.seen,
      ...(next.emitPaymentConfirmed ? { confirmedAt: now } : {}),
    },
  });
  if (count === 0) return next;
  const updated = { ...invoice, status: next.status };
  // A confirmed recurring invoice starts its subscription or pays its next period.
  const subscription = next.emitPaymentConfirmed
    ? await recordRecurringPayment(tx, updated, invoice.checkoutSession, now)
    : invoice.subscription;
  const data = {
    ...serializeInvoiceEvent(
      updated,
      invoice.checkoutSession,
      subscription && subscriptionEventObject(subscription),
    ),
    amountPaid: next.seen,
    overpaid: next.overpaid,
    late: next.late,
    // The transactions that paid it (EVM hashes, Solana signatures), oldest first, each once.
    transactions: [
      ...new Set(
        invoice.payments
          .filter((payment) => payment.status !== "REORGED")
          .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
          .map((payment) => payment.txHash),
      ),
    ],
  };
  const due = [
    next.emitPaymentConfirmed && "payment.confirmed",
    next.emitInvoiceOverdue && "invoice.overdue",
  ] as const;
  for (const type of due) {
    if (type)
      await recordEvent(tx, { organizationId: invoice.organizationId, type, invoiceId: invoice.id, data });
  }
  if (next.emitPaymentConfirmed) {
    await recordReceiptEmail(tx, invoice.id, { kind: "payment" }, now);
    await refundOverpayment(tx, invoice, next.overpaid, now);
  }
  return next;
}
