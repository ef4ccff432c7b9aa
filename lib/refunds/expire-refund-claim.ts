import type { Tx } from "../db/client";
import type { Refund } from "../generated/prisma/client";
import { recordRefundEvent } from "./record-refund-event";
import { nextRefundStatus } from "./refund-state";

export const claimExpiredReason = "The claim link expired before the buyer entered an address.";

/**
 * Fails an open claim whose link has expired (the `expire` event), with its refund.failed event,
 * in the caller's transaction. Conditional on the row still being an open, expired claim, so a
 * claim or a cancel that won the race is left alone. Returns the updated row, or null.
 */
export async function expireRefundClaim(tx: Tx, refund: Refund, now: Date): Promise<Refund | null> {
  const next = nextRefundStatus(refund.status, "expire");
  if (!next || !refund.claimExpiresAt || refund.claimExpiresAt > now) return null;
  const { count } = await tx.refund.updateMany({
    where: { id: refund.id, status: refund.status, claimExpiresAt: { lte: now } },
    data: { status: next, failureReason: claimExpiredReason },
  });
  if (count === 0) return null;
  const updated = await tx.refund.findUniqueOrThrow({ where: { id: refund.id } });
  await recordRefundEvent(tx, updated, "refund.failed");
  return updated;
}
