import { z } from "zod";
import type { AddressRules } from "../chains/chain-family";
import { chainFamilyOf } from "../config";
import type { Db } from "../db/client";
import { conflict, gone, invalidRequest, notFound, type ServiceError } from "../errors";
import { refuseServiceWallet } from "../wallets/find-service-wallet";
import { announceRefundProposal } from "./announce-refund-proposal";
import { mayClaimWithoutOwner } from "./check-refund-destination";
import { checkWalletAddress } from "./check-wallet-address";
import { checkClaimCode, claimCodeFailuresPerLink, claimCodeTriesAllowed, noClaimCode } from "./claim-code";
import { hashClaimToken } from "./claim-token";
import { claimExpiredReason, expireRefundClaim } from "./expire-refund-claim";
import { type ClaimableRefund, findRefundByClaimToken } from "./find-refund-by-claim-token";
import { lockClaimLink } from "./lock-claim-link";
import { nextRefundStatus } from "./refund-state";
import { type PublicRefundClaim, serializePublicRefundClaim } from "./serialize-public-refund-claim";

/**
 * The claim page's form: the link's token, the buyer's address typed twice, and the code emailed
 * to the buyer (needed when the buyer's email is known; an empty field counts as none).
 */
export const claimRefundSchema = z.strictObject({
  token: z.string().max(200),
  address: z.string().trim().max(200),
  confirmAddress: z.string().trim().max(200),
  code: z.string().trim().max(20).optional(),
});
export type ClaimRefundInput = z.output<typeof claimRefundSchema>;

/**
 * The buyer's address as the invoice's chain family spells it. An EVM address in mixed case must
 * match its EIP-55 checksum (a typo in a checksummed address is caught); all lower or upper case
 * carries no checksum and is accepted. An address whose money no one can spend is refused.
 */
function readAddress(value: string, param: "address" | "confirmAddress", addresses: AddressRules): string {
  const parsed = addresses.parse(value);
  if ("problem" in parsed) {
    throw parsed.problem === "checksum"
      ? invalidRequest(
          "address_checksum",
          `Invalid ${param}: its capital letters do not match its checksum; copy it again.`,
          param,
        )
      : invalidRequest("address_invalid", `Invalid ${param}: not ${addresses.format}.`, param);
  }
  if (addresses.isBurn(parsed.address)) {
    throw invalidRequest(
      "address_invalid",
      `Invalid ${param}: the zero address cannot receive funds.`,
      param,
    );
  }
  return parsed.address;
}

/** Why a claim that is no longer open cannot take an address. */
export function closedClaim(refund: ClaimableRefund): ServiceError {
  if (refund.status === "FAILED" && !refund.claimedAt) {
    return refund.failureReason === claimExpiredReason
      ? gone("claim_expired", "This refund link has expired.")
      : gone("claim_closed", "The merchant cancelled this refund.");
  }
  return gone("claim_used", "An address was already entered for this refund.");
}

/**
 * The buyer claims a refund: PENDING_CLAIM → PENDING with their address (→ REQUIRES_APPROVAL, for
 * an owner to decide, when a credential asked for it and no emailed code proved the claim). Single use (checked
 * under the row's lock), refused once the link has expired or been re-sent, and, when the buyer's
 * email is known, only with the one-time code emailed there (lib/refunds/claim-code.ts).
 */
export async function claimRefund(
  database: Db,
  input: ClaimRefundInput,
  now = new Date(),
): Promise<PublicRefundClaim> {
  let refund = await findRefundByClaimToken(database, input.token);
  // A proposal waits for an owner; once claimed, the buyer still follows their refund.
  if (refund.status === "REQUIRES_APPROVAL" && !refund.claimedAt) throw notFound("refund claim", "token");
  // The expiry commits on its own: the refusal below must not roll it back.
  const expired = await database.$transaction((tx) => expireRefundClaim(tx, refund, now));
  if (expired) refund = { ...refund, ...expired };
  const next = nextRefundStatus(refund.status, "claim");
  if (!next) throw closedClaim(refund);
  const { addresses } = chainFamilyOf(refund.network);
  const toAddress = readAddress(input.address, "address", addresses);
  if (readAddress(input.confirmAddress, "confirmAddress", addresses) !== toAddress) {
    throw invalidRequest(
      "address_mismatch",
      "The two addresses differ; enter the same address twice.",
      "confirmAddress",
    );
  }
  // Before the transaction: the chain is read, and no transaction waits on it.
  await refuseServiceWallet(database, refund.network, toAddress, "address");
  await checkWalletAddress(refund.network, toAddress, "address");
  // One transaction under the row's lock: the link must still be the refund's current one (a link
  // retired by a re-send meanwhile never wins), and the code is checked, counted and spent there.
  const outcome = await database.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT "id" FROM "Refund" WHERE "id" = ${refund.id} FOR UPDATE`;
    const current = await tx.refund.findUniqueOrThrow({ where: { id: refund.id } });
    if (
      current.status !== refund.status ||
      current.claimTokenHash !== hashClaimToken(input.token) ||
      !current.claimExpiresAt ||
      current.claimExpiresAt <= now
    ) {
      return { kind: "closed" } as const;
    }
    if (current.claimEmail !== null) {
      const check = checkClaimCode(current, input.code || undefined, now);
      if (check === "wrong") {
        const tries = current.claimCodeAttempts + 1;
        const failures = current.claimCodeFailures + 1;
        const spent = tries >= claimCodeTriesAllowed || failures >= claimCodeFailuresPerLink;
        await tx.refund.update({
          where: { id: refund.id },
          // Out of tries: the code is spent, and the buyer asks for a new one (or, past the link's
          // cap, an owner re-sends the link).
          data: { claimCodeAttempts: tries, claimCodeFailures: failures, ...(spent ? noClaimCode : {}) },
        });
        if (failures >= claimCodeFailuresPerLink) return { kind: "locked" } as const;
        return { kind: "wrong", left: claimCodeTriesAllowed - tries } as const;
      }
      if (check !== "ok") return { kind: check } as const;
    }
    // The link's holder is not known to be the buyer unless the emailed code proved it; a link a
    // credential asked for (its answer carried the link) then waits for an owner to decide the
    // address, or a stolen key could claim it for itself (lib/refunds/check-refund-destination.ts).
    const status = mayClaimWithoutOwner(current)
      ? next
      : (nextRefundStatus(current.status, "claim_unproven") ?? next);
    const claimed = await tx.refund.update({
      where: { id: refund.id },
      data: { status, toAddress, claimedAt: now, ...noClaimCode },
    });
    return { kind: "claimed", claimed } as const;
  });
  switch (outcome.kind) {
    case "closed":
      throw closedClaim(await findRefundByClaimToken(database, input.token));
    case "locked":
      await lockClaimLink(database, refund, now);
      throw claimLocked();
    case "missing":
      throw invalidRequest(
        "code_required",
        "Enter the code we emailed to the buyer; ask for one on this page if you have none.",
        "code",
      );
    case "expired":
      throw invalidRequest(
        "code_expired",
        "This code has expired or was used up; ask for a new one.",
        "code",
      );
    case "wrong":
      throw invalidRequest(
        "code_invalid",
        outcome.left > 0
          ? `Wrong code: ${outcome.left} ${outcome.left === 1 ? "try" : "tries"} left before you need a new one.`
          : "Wrong code, and no tries left: ask for a new one.",
        "code",
      );
  }
  const { claimed } = outcome;
  await announceRefundProposal(database, claimed);
  return serializePublicRefundClaim({ ...refund, ...claimed });
}

/** A link past its caps of codes or wrong tries (lib/refunds/claim-code.ts). */
export function claimLocked() {
  return conflict(
    "claim_locked",
    "Too many codes were asked for or typed wrong on this link: ask the merchant to send you a new one.",
  );
}
