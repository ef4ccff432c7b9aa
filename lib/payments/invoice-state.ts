import { InvoiceStatus } from "../generated/prisma/enums";
import { Money, type MoneyValue } from "../money/decimal";

// The invoice state machine, pure. It is computed
// from what the chain shows, not stepped by events, so reorganisations (a payment's block
// vanishing) and late top-ups fall out of the same rule:
//   confirmed >= due                       -> CONFIRMED (terminal; payment.confirmed once)
//   confirmed + confirming >= due          -> CONFIRMING (the buyer paid in time; waits for depth)
//   past the deadline                      -> OVERDUE (invoice.overdue once)
//   something seen                         -> PARTIALLY_PAID
//   nothing seen                           -> AWAITING_PAYMENT
// A payment confirmed after the deadline still completes the invoice, reported as late.

export type { InvoiceStatus };
/** Every invoice status, from the database enum: the one list filters and serializers use. */
export const invoiceStatuses = Object.values(InvoiceStatus);

export type InvoiceView = { status: InvoiceStatus; amountDue: MoneyValue; deadline: Date };
export type PaymentTotals = {
  /** Payments with the required confirmations, on the canonical chain. */
  confirmed: MoneyValue;
  /** Payments seen on the canonical chain with fewer confirmations. */
  confirming: MoneyValue;
};

export type InvoiceTransition = {
  status: InvoiceStatus;
  /** payment.confirmed is due now (only on the transition into CONFIRMED). */
  emitPaymentConfirmed: boolean;
  /** invoice.overdue is due now (only on the transition into OVERDUE). */
  emitInvoiceOverdue: boolean;
  /** Confirmed and confirming amounts together. */
  seen: string;
  /** What the buyer still has to send (0 once the full amount is seen). */
  remaining: string;
  /** What was sent beyond the amount due. */
  overpaid: string;
  late: boolean;
};

export function nextInvoiceState(invoice: InvoiceView, totals: PaymentTotals, now: Date): InvoiceTransition {
  const due = new Money(invoice.amountDue);
  const confirmed = new Money(totals.confirmed);
  const seen = confirmed.plus(totals.confirming);
  const pastDeadline = now.getTime() >= invoice.deadline.getTime();

  const status: InvoiceStatus = (() => {
    if (invoice.status === "CONFIRMED" || confirmed.gte(due)) return "CONFIRMED";
    if (seen.gte(due)) return "CONFIRMING";
    if (pastDeadline || invoice.status === "OVERDUE") return "OVERDUE";
    return seen.gt(0) ? "PARTIALLY_PAID" : "AWAITING_PAYMENT";
  })();

  return {
    status,
    emitPaymentConfirmed: status === "CONFIRMED" && invoice.status !== "CONFIRMED",
    emitInvoiceOverdue: status === "OVERDUE" && invoice.status !== "OVERDUE",
    seen: seen.toFixed(),
    remaining: Money.max(due.minus(seen), 0).toFixed(),
    overpaid: Money.max(seen.minus(due), 0).toFixed(),
    late: status === "CONFIRMED" && invoice.status !== "CONFIRMED" && pastDeadline,
  };
}
