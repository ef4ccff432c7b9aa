import type { Db } from "../db/client";
import { conflict } from "../errors";
import { applyRefundEvent } from "./apply-refund-event";
import { recordRefundEvent } from "./record-refund-event";

const refusal =
  "Only a refund that has not been sent yet (pending_claim, or pending and not signed) can be cancelled.";

/**
 * The merchant withdraws a refund before it is sent: an open claim link, or a pending refund the
 * signer has not signed a transaction for. It fails with "cancelled by the merchant" and
 * `refund.failed` is recorded in the same transaction. The link keeps finding the refund, so the
 * buyer reads that it was cancelled; a claim needs PENDING_CLAIM, so it cannot be used.
 */
export async function cancelRefund(database: Db, organizationId: string, id: string, now = new Date()) {
  return database.$transaction(async (tx) => {
    const refund = await applyRefundEvent(tx, organizationId, id, "cancel", refusal, () => ({
      failureReason: "cancelled by the merchant",
      updatedAt: now,
    }));
    // The signer records a transaction before it broadcasts: once one exists, the money may move.
    if ((await tx.signedTransaction.count({ where: { refundId: id } })) > 0)
      throw conflict("refund_state", refusal);
    await recordRefundEvent(tx, refund, "refund.failed");
    return refund;
  });
}
