import type { Tx } from "../db/client";
import { recordEvent } from "../events/record-event";
import type { Refund } from "../generated/prisma/client";
import { serializeRefund } from "./serialize-refund";

export type RefundEventType = "refund.created" | "refund.succeeded" | "refund.failed";

/**
 * Records a refund event in the caller's transaction (the outbox: it commits with the refund's
 * change of status). The payload is the common fields plus the refund object (docs/webhooks.md).
 */
export async function recordRefundEvent(tx: Tx, refund: Refund, type: RefundEventType) {
  return recordEvent(tx, {
    organizationId: refund.organizationId,
    type,
    invoiceId: refund.invoiceId,
    data: { checkoutSessionId: refund.checkoutSessionId, refund: serializeRefund(refund) },
  });
}
