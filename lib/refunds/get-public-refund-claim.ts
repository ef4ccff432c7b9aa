import type { Db } from "../db/client";
import { notFound } from "../errors";
import { expireRefundClaim } from "./expire-refund-claim";
import { findRefundByClaimToken } from "./find-refund-by-claim-token";
import { serializePublicRefundClaim } from "./serialize-public-refund-claim";

/**
 * A claim link's refund as the buyer's page shows it, by the link's token alone. An open claim
 * past its expiry fails here and now (the periodic job may not have run yet), so an expired link
 * never takes an address.
 */
export async function getPublicRefundClaim(database: Db, token: string, now = new Date()) {
  const refund = await findRefundByClaimToken(database, token);
  // A proposal's link is not the buyer's until an owner approves it.
  // A proposal waits for an owner; once claimed, the buyer still follows their refund.
  if (refund.status === "REQUIRES_APPROVAL" && !refund.claimedAt) throw notFound("refund claim", "token");
  const expired = await database.$transaction((tx) => expireRefundClaim(tx, refund, now));
  return serializePublicRefundClaim(expired ? { ...refund, ...expired } : refund);
}
