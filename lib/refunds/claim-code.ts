import { randomInt, timingSafeEqual } from "node:crypto";
import type { Refund } from "../generated/prisma/client";
import { hashClaimCode } from "./claim-token";

// When the buyer's email is known, a claim link alone moves nothing: the claim page asks for a
// six-digit code we email to that address (lib/refunds/send-claim-code.ts). A code is stored as an
// HMAC, works for 10 minutes and once, and allows five wrong tries; then the buyer asks for another.
// A link has at most five codes and ten wrong tries across them (one in 100,000 to guess a code);
// past either it is locked until an owner re-sends it, which also retires the buyer's link.

export const claimCodeLifetimeMs = 10 * 60 * 1000;
export const claimCodeTriesAllowed = 5;
export const claimCodesPerLink = 5;
export const claimCodeFailuresPerLink = 10;
/** A new code at most this often per refund (each one is an email to the buyer). */
export const claimCodeResendAfterMs = 60 * 1000;

export function newClaimCode(): string {
  return randomInt(0, 1_000_000).toString().padStart(6, "0");
}

/** The fields that store a code just emailed, for the refund's row. */
export function storeClaimCode(refundId: string, code: string, now: Date) {
  return {
    claimCodeHash: hashClaimCode(refundId, code),
    claimCodeExpiresAt: new Date(now.getTime() + claimCodeLifetimeMs),
    claimCodeAttempts: 0,
    claimCodeSentAt: now,
    claimCodesSent: { increment: 1 },
  };
}

/** A link past its caps: no more codes, no more tries, until an owner re-sends it. */
export function claimCodesLocked(refund: Pick<Refund, "claimCodesSent" | "claimCodeFailures">): boolean {
  return refund.claimCodesSent >= claimCodesPerLink || refund.claimCodeFailures >= claimCodeFailuresPerLink;
}

export type ClaimCodeCheck = "ok" | "missing" | "expired" | "wrong" | "locked";

/**
 * Checks a code typed on the claim page against the refund's row (read under its lock), in
 * constant time. `expired`: no code is live (never sent, past its 10 minutes, used, or out of tries).
 */
export function checkClaimCode(
  refund: Pick<
    Refund,
    "id" | "claimCodeHash" | "claimCodeExpiresAt" | "claimCodeAttempts" | "claimCodeFailures"
  >,
  code: string | undefined,
  now: Date,
): ClaimCodeCheck {
  if (refund.claimCodeFailures >= claimCodeFailuresPerLink) return "locked";
  if (!code) return "missing";
  if (
    !refund.claimCodeHash ||
    !refund.claimCodeExpiresAt ||
    refund.claimCodeExpiresAt <= now ||
    refund.claimCodeAttempts >= claimCodeTriesAllowed
  ) {
    return "expired";
  }
  const expected = Buffer.from(refund.claimCodeHash, "hex");
  const given = Buffer.from(hashClaimCode(refund.id, code), "hex");
  return timingSafeEqual(expected, given) ? "ok" : "wrong";
}

/** The fields that retire the refund's code (used, or claimed). */
export const noClaimCode = { claimCodeHash: null, claimCodeExpiresAt: null } as const;
