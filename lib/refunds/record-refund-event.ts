import type { Tx } from "../db/client";
import { recordEvent } from "../events/record-event";
import { serializeInvoiceEvent } from "../events/serialize-invoice-event";
import type { Refund } from "../generated/prisma/client";
import { formatDecimal } from "../money/decimal";
import { serializeRefund } from "./serialize-refund";

export type RefundEventType = "refund.created" | "refund.succeeded" | "refund.failed";

/**
 * Records a refund event in the caller's transaction (the outbox: it commits with the refund's
 * change of status). The payload is the invoice's common fields (as payment events carry them),
 * what its succeeded refunds gave back so far (`amountRefunded`, in the token) and the refund
 * object (docs/webhooks.md); the STRIPE adapter builds its refund and charge from them.
 */
export async function recordRefundEvent(tx: Tx, refund: Refund, type: RefundEventType) {
  const invoice = await tx.invoice.findUniqueOrThrow({
    where: { id: refund.invoiceId },
    include: { checkoutSession: true },
  });
  const refunded = await tx.refund.aggregate({
    where: { invoiceId: refund.invoiceId, status: "SUCCEEDED" },
    _sum: { amount: true },
  });
  return recordEvent(tx, {
    organizationId: refund.organizationId,
    type,
    invoiceId: refund.invoiceId,
    data: {
      ...serializeInvoiceEvent(invoice, invoice.checkoutSession),
      amountRefunded: formatDecimal(refunded._sum.amount ?? 0),
      // Events reach every endpoint, whoever created it: never a claim link.
      refund: serializeRefund(refund, null),
    },
  });
}
