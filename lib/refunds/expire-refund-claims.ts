import type { Db } from "../db/client";
import { expireRefundClaim } from "./expire-refund-claim";

/** Fails every open claim whose link has expired (the periodic job; pages also do it on access). */
export async function expireRefundClaims(database: Db, now = new Date(), batch = 100): Promise<number> {
  const due = await database.refund.findMany({
    where: { status: "PENDING_CLAIM", claimExpiresAt: { lte: now } },
    orderBy: { claimExpiresAt: "asc" },
    take: batch,
  });
  let expired = 0;
  for (const refund of due) {
    if (await database.$transaction((tx) => expireRefundClaim(tx, refund, now))) expired++;
  }
  return expired;
}
