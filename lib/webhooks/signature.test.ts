import { verifyWebhookSignature } from "crypto-checkout-agent/webhooks";
import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { generateSigningSecret, signatureHeader } from "./signature";

// The sender's side; the receiver's check is tested with the kit (verify-signature.test.ts).
const secret = generateSigningSecret();
const body = '{"id":"evt_1","type":"payment.confirmed","amount":"49.00"}';
const now = new Date("2026-01-01T00:00:00Z");
const t = Math.floor(now.getTime() / 1000);

describe("webhook signatures", () => {
  it("signs the raw body so that the kit's check accepts it and a tampered body fails", () => {
    const header = signatureHeader([secret], t, body);
    expect(verifyWebhookSignature({ rawBody: body, header, secret, now })).toEqual({
      valid: true,
      timestamp: t,
    });
    expect(verifyWebhookSignature({ rawBody: body.replace("49.00", "0.01"), header, secret, now })).toEqual({
      valid: false,
      reason: "signature_mismatch",
    });
  });

  it("carries one v1 per secret during a rotation's grace, each accepted", () => {
    const old = generateSigningSecret();
    const header = signatureHeader([secret, old], t, body);
    expect(header.match(/v1=/g)).toHaveLength(2);
    for (const key of [secret, old]) {
      expect(verifyWebhookSignature({ rawBody: body, header, secret: key, now }).valid).toBe(true);
    }
  });

  it("matches the signature Stripe's own library computes", () => {
    const stripeHeader = new Stripe("sk_test_unused").webhooks.generateTestHeaderString({
      payload: body,
      secret,
      timestamp: t,
    });
    expect(stripeHeader).toBe(signatureHeader([secret], t, body));
  });

  it("makes secrets of 32 random bytes", () => {
    expect(Buffer.from(secret.slice("whsec_".length), "base64")).toHaveLength(32);
    expect(generateSigningSecret()).not.toBe(secret);
  });
});
