import { createHmac, timingSafeEqual } from "node:crypto";

// X-Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>"> keyed with the
// whole whsec_… string; several v1 values during a rotation; 300 s tolerance against replays.
// The kit checks it offline and may not import the app, so the one implementation lives here and
// the app signs deliveries with this computeSignature (lib/webhooks/signature.ts).

export const signatureToleranceSeconds = 300;

/** Hex HMAC-SHA256 of "<timestamp>.<raw body>" keyed with the whole whsec_… string. */
export function computeSignature(secret: string, timestamp: number, rawBody: string): string {
  return createHmac("sha256", secret).update(`${timestamp}.${rawBody}`).digest("hex");
}

export type SignatureCheck =
  | { valid: true; timestamp: number }
  | { valid: false; reason: "malformed_header" | "timestamp_out_of_tolerance" | "signature_mismatch" };

export function verifyWebhookSignature(input: {
  rawBody: string;
  header: string;
  secret: string;
  now?: Date;
  toleranceSeconds?: number;
}): SignatureCheck {
  const parts = input.header.split(",").map((part) => part.trim().split("="));
  const timestampText = parts.find(([name]) => name === "t")?.[1] ?? "";
  const timestamp = /^\d{1,12}$/.test(timestampText) ? Number(timestampText) : Number.NaN;
  const signatures = parts
    .filter(([name, value]) => name === "v1" && /^[0-9a-f]{64}$/.test(value ?? ""))
    .map(([, value]) => Buffer.from(value, "hex"));
  if (!Number.isSafeInteger(timestamp) || signatures.length === 0) {
    return { valid: false, reason: "malformed_header" };
  }
  const nowSeconds = Math.floor((input.now ?? new Date()).getTime() / 1000);
  if (Math.abs(nowSeconds - timestamp) > (input.toleranceSeconds ?? signatureToleranceSeconds)) {
    return { valid: false, reason: "timestamp_out_of_tolerance" };
  }
  const expected = Buffer.from(computeSignature(input.secret, timestamp, input.rawBody), "hex");
  return signatures.some((signature) => timingSafeEqual(signature, expected))
    ? { valid: true, timestamp }
    : { valid: false, reason: "signature_mismatch" };
}
