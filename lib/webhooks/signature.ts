import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

// X-Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>"> keyed with the
// whole whsec_… string (decisions doc). Stripe signs the same way, so the Stripe adapter's
// Stripe-Signature header carries the same value.

export const signatureToleranceSeconds = 300;

export function generateSigningSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

export function computeSignature(secret: string, timestamp: number, rawBody: string): string {
  return createHmac("sha256", secret).update(`${timestamp}.${rawBody}`).digest("hex");
}

/** The header value, with one v1 per secret (several during a rotation's grace period). */
export function signatureHeader(secrets: string[], timestamp: number, rawBody: string): string {
  return [
    `t=${timestamp}`,
    ...secrets.map((secret) => `v1=${computeSignature(secret, timestamp, rawBody)}`),
  ].join(",");
}

export type VerificationResult =
  | { ok: true; timestamp: number }
  | { ok: false; reason: "malformed_header" | "timestamp_out_of_tolerance" | "signature_mismatch" };

/**
 * Checks a delivery as a receiver must: over the raw body exactly as received, against the
 * endpoint's secret, with the timestamp no more than five minutes away from now.
 */
export function verifySignature(input: {
  rawBody: string;
  header: string | null | undefined;
  secret: string;
  now?: Date;
  toleranceSeconds?: number;
}): VerificationResult {
  const parts = (input.header ?? "").split(",").map((part) => part.trim().split("="));
  const timestamp = Number(parts.find(([name]) => name === "t")?.[1]);
  const signatures = parts
    .filter(([name, value]) => name === "v1" && /^[0-9a-f]{64}$/.test(value ?? ""))
    .map(([, value]) => value);
  if (!Number.isInteger(timestamp) || signatures.length === 0)
    return { ok: false, reason: "malformed_header" };
  const nowSeconds = Math.floor((input.now ?? new Date()).getTime() / 1000);
  if (Math.abs(nowSeconds - timestamp) > (input.toleranceSeconds ?? signatureToleranceSeconds)) {
    return { ok: false, reason: "timestamp_out_of_tolerance" };
  }
  const expected = Buffer.from(computeSignature(input.secret, timestamp, input.rawBody), "hex");
  const matches = signatures.some((signature) => timingSafeEqual(Buffer.from(signature, "hex"), expected));
  return matches ? { ok: true, timestamp } : { ok: false, reason: "signature_mismatch" };
}
