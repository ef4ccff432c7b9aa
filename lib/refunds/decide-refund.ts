import type { Db } from "../db/client";
import type { Refund } from "../generated/prisma/client";
import { applyRefundEvent } from "./apply-refund-event";
import { openClaim } from "./insert-refund";
import { recordRefundEvent } from "./record-refund-event";
import { sendClaimLink } from "./send-claim-link";

export type RefundDecisionInput = { id: string; userId: string; decision: "confirm" | "reject" };

const refusal = "Only a refund waiting for an owner (requires_approval) can be confirmed or rejected.";

/**
 * An owner decides a refund an agent or an OAuth token proposed (from the dashboard): confirmed,
 * a claim refund opens its link (emailed to the buyer) and any other goes to the signer; rejected,
 * it fails and `refund.failed` is recorded.
 */
export async function decideRefund(
  database: Db,
  organizationId: string,
  input: RefundDecisionInput,
  now = new Date(),
): Promise<Refund> {
  const refund = await database.$transaction(async (tx) => {
    const decided = { decidedByUserId: input.userId, decidedAt: now, updatedAt: now };
    if (input.decision === "reject") {
      const rejected = await applyRefundEvent(tx, organizationId, input.id, "reject", refusal, () => ({
        ...decided,
        failureReason: "rejected by an owner",
      }));
      await recordRefundEvent(tx, rejected, "refund.failed");
      return rejected;
    }
    const current = await tx.refund.findFirst({
      where: { id: input.id, organizationId },
      select: { destination: true, claimedAt: true },
    });
    // A claim link still to open; a claimed one waits for the owner only to pay its address.
    const claim = current?.destination === "CLAIM" && !current.claimedAt;
    return applyRefundEvent(
      tx,
      organizationId,
      input.id,
      claim ? "approve_claim" : "approve_send",
      refusal,
      () => ({
        ...decided,
        // Why it was held no longer holds it.
        pendingReason: null,
        ...(claim ? openClaim(input.id, now) : {}),
      }),
    );
  });
  await sendClaimLink(database, refund);
  return refund;
}
