import { randomBytes } from "node:crypto";
import { computeSignature } from "crypto-checkout-agent/webhooks";

// X-Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>"> keyed with the
// whole whsec_… string (docs/webhooks.md, "Verifying the signature"). Stripe signs the same way,
// so the Stripe adapter's Stripe-Signature header carries the same value. The algorithm and the
// receiver's check are the agent kit's (packages/agent/src/webhooks/verify-signature.ts): one
// implementation for both sides.

export function generateSigningSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/** The header value, with one v1 per secret (several during a rotation's grace period). */
export function signatureHeader(secrets: string[], timestamp: number, rawBody: string): string {
  return [
    `t=${timestamp}`,
    ...secrets.map((secret) => `v1=${computeSignature(secret, timestamp, rawBody)}`),
  ].join(",");
}
