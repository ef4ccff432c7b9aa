import { getAddress, isAddress, zeroAddress } from "viem";
import { z } from "zod";
import type { Db } from "../db/client";
import { gone, invalidRequest, notFound, type ServiceError } from "../errors";
import { hashClaimToken } from "./claim-token";
import { claimExpiredReason, expireRefundClaim } from "./expire-refund-claim";
import { type ClaimableRefund, findRefundByClaimToken } from "./find-refund-by-claim-token";
import { nextRefundStatus } from "./refund-state";
import { type PublicRefundClaim, serializePublicRefundClaim } from "./serialize-public-refund-claim";

/** The claim page's form: the link's token and the buyer's address, typed twice. */
export const claimRefundSchema = z.strictObject({
  token: z.string().max(200),
  address: z.string().trim().max(200),
  confirmAddress: z.string().trim().max(200),
});
export type ClaimRefundInput = z.output<typeof claimRefundSchema>;

/**
 * The buyer's address, checksummed. Mixed case must match its EIP-55 checksum (a typo in a
 * checksummed address is caught); all lower or upper case carries no checksum and is accepted.
 */
function readAddress(value: string, param: "address" | "confirmAddress"): string {
  if (!isAddress(value, { strict: false })) {
    throw invalidRequest(
      "address_invalid",
      `Invalid ${param}: not an EVM address (0x and 40 hex digits).`,
      param,
    );
  }
  if (!isAddress(value, { strict: true })) {
    throw invalidRequest(
      "address_checksum",
      `Invalid ${param}: its capital letters do not match its checksum; copy it again.`,
      param,
    );
  }
  const address = getAddress(value);
  if (address === zeroAddress) {
    throw invalidRequest(
      "address_invalid",
      `Invalid ${param}: the zero address cannot receive funds.`,
      param,
    );
  }
  return address;
}

/** Why a claim that is no longer open cannot take an address. */
function closedClaim(refund: ClaimableRefund): ServiceError {
  if (refund.status === "FAILED" && !refund.claimedAt) {
    return refund.failureReason === claimExpiredReason
      ? gone("claim_expired", "This refund link has expired.")
      : gone("claim_closed", "The merchant cancelled this refund.");
  }
  return gone("claim_used", "An address was already entered for this refund.");
}

/**
 * The buyer claims a refund: PENDING_CLAIM → PENDING with their address. Single use (the write is
 * conditional on the claim still being open), refused once the link has expired.
 */
export async function claimRefund(
  database: Db,
  input: ClaimRefundInput,
  now = new Date(),
): Promise<PublicRefundClaim> {
  let refund = await findRefundByClaimToken(database, input.token);
  if (refund.status === "REQUIRES_APPROVAL") throw notFound("refund claim", "token");
  // The expiry commits on its own: the refusal below must not roll it back.
  const expired = await database.$transaction((tx) => expireRefundClaim(tx, refund, now));
  if (expired) refund = { ...refund, ...expired };
  const next = nextRefundStatus(refund.status, "claim");
  if (!next) throw closedClaim(refund);
  const toAddress = readAddress(input.address, "address");
  if (readAddress(input.confirmAddress, "confirmAddress") !== toAddress) {
    throw invalidRequest(
      "address_mismatch",
      "The two addresses differ; enter the same address twice.",
      "confirmAddress",
    );
  }
  const claimed = await database.$transaction(async (tx) => {
    // Conditional on this link still being the refund's current one (its hash, and the expiry it
    // derives from), in the same statement: a link retired by a re-send meanwhile never wins.
    const { count } = await tx.refund.updateMany({
      where: {
        id: refund.id,
        status: refund.status,
        claimTokenHash: hashClaimToken(input.token),
        claimExpiresAt: { equals: refund.claimExpiresAt as Date, gt: now },
      },
      data: { status: next, toAddress, claimedAt: now },
    });
    return count === 1 ? tx.refund.findUniqueOrThrow({ where: { id: refund.id } }) : null;
  });
  if (!claimed) throw closedClaim(await findRefundByClaimToken(database, input.token));
  return serializePublicRefundClaim({ ...refund, ...claimed });
}
