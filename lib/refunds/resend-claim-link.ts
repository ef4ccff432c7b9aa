import type { Db } from "../db/client";
import { conflict, notFound } from "../errors";
import { openClaim } from "./insert-refund";
import { sendClaimLink } from "./send-claim-link";

/**
 * Re-opens an open claim link for another 30 days: the new expiry derives a new token, so the
 * link sent before stops working, and the buyer (when the session has an email) gets the new one.
 */
export async function resendClaimLink(database: Db, organizationId: string, id: string, now = new Date()) {
  const refund = await database.$transaction(async (tx) => {
    const locked = await tx.$queryRaw<{ status: string }[]>`
      SELECT "status"::text FROM "Refund" WHERE "id" = ${id} AND "organizationId" = ${organizationId} FOR UPDATE`;
    if (locked.length === 0) throw notFound("refund");
    if (locked[0].status !== "PENDING_CLAIM") {
      throw conflict(
        "refund_state",
        "Only a refund waiting for the buyer's address (pending_claim) has a link to re-send.",
      );
    }
    return tx.refund.update({ where: { id }, data: { ...openClaim(id, now), updatedAt: now } });
  });
  await sendClaimLink(database, refund);
  return refund;
}
