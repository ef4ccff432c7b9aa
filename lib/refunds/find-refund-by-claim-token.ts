import { timingSafeEqual } from "node:crypto";
import type { Db, Tx } from "../db/client";
import { notFound } from "../errors";
import { claimTokenFor, hashClaimToken } from "./claim-token";

const include = {
  organization: {
    select: { name: true, brandDisplayName: true, brandColor: true, brandLogo: { select: { id: true } } },
  },
} as const;

/**
 * The refund a claim link names. The row is found by the token's hash (an index lookup), then
 * the token is derived again from the row and compared in constant time, so only the current
 * link of that refund opens it (a re-sent link retires the old one). Unknown: 404.
 */
export async function findRefundByClaimToken(database: Db | Tx, token: string) {
  const refund = /^[A-Za-z0-9_-]{20,100}$/.test(token)
    ? await database.refund.findUnique({ where: { claimTokenHash: hashClaimToken(token) }, include })
    : null;
  if (!refund?.claimExpiresAt) throw notFound("refund claim", "token");
  const expected = Buffer.from(claimTokenFor(refund.id, refund.claimExpiresAt));
  const given = Buffer.from(token);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw notFound("refund claim", "token");
  }
  return refund;
}

export type ClaimableRefund = Awaited<ReturnType<typeof findRefundByClaimToken>>;
