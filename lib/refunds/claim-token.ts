import { createHash, createHmac, hkdfSync } from "node:crypto";
import { config } from "../config";

// A claim link's token is derived, not stored: HMAC(server key, refund id + link expiry). The
// database keeps only its SHA-256 (to find the refund from a link), yet the merchant's API and
// dashboard can show the same link again while it is open. Re-sending a link moves its expiry,
// which makes a new token and retires the old one.

/** How long a claim link stays open. */
export const claimLinkLifetimeMs = 30 * 24 * 60 * 60 * 1000;

function claimKey(): Buffer {
  const secretKey = config().secretKey;
  if (!secretKey) throw new Error("SERVICE_SECRET_KEY is not set; refund claim links need it");
  return Buffer.from(hkdfSync("sha256", secretKey, "", "refund-claim", 32));
}

export function claimTokenFor(refundId: string, expiresAt: Date): string {
  return createHmac("sha256", claimKey())
    .update(`${refundId}:${expiresAt.toISOString()}`)
    .digest("base64url");
}

export function hashClaimToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/**
 * A claim code's stored form: an HMAC under the server key, bound to its refund, so a copy of the
 * database alone cannot try the million six-digit codes offline.
 */
export function hashClaimCode(refundId: string, code: string): string {
  return createHmac("sha256", claimKey()).update(`code:${refundId}:${code}`).digest("hex");
}

export function claimUrlFor(refundId: string, expiresAt: Date): string {
  return `${config().baseUrl}/refund/${claimTokenFor(refundId, expiresAt)}`;
}
