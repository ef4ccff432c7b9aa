import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { computeSignature, generateSigningSecret, signatureHeader, verifySignature } from "./signature";

const secret = generateSigningSecret();
const body = '{"id":"evt_1","type":"payment.confirmed","amount":"49.00"}';
const now = new Date("2026-01-01T00:00:00Z");
const t = Math.floor(now.getTime() / 1000);

describe("webhook signatures", () => {
  it("verifies a signature over the raw body", () => {
    expect(
      verifySignature({ rawBody: body, header: signatureHeader([secret], t, body), secret, now }),
    ).toEqual({ ok: true, timestamp: t });
  });

  it.each<[string, () => Parameters<typeof verifySignature>[0], string]>([
    [
      "a tampered body",
      () => ({
        rawBody: body.replace("49.00", "0.01"),
        header: signatureHeader([secret], t, body),
        secret,
        now,
      }),
      "signature_mismatch",
    ],
    [
      "re-serialized JSON",
      () => ({
        rawBody: JSON.stringify(JSON.parse(body), null, 2),
        header: signatureHeader([secret], t, body),
        secret,
        now,
      }),
      "signature_mismatch",
    ],
    [
      "another secret",
      () => ({ rawBody: body, header: signatureHeader([generateSigningSecret()], t, body), secret, now }),
      "signature_mismatch",
    ],
    [
      "a stale timestamp",
      () => ({ rawBody: body, header: signatureHeader([secret], t - 301, body), secret, now }),
      "timestamp_out_of_tolerance",
    ],
    [
      "a future timestamp",
      () => ({ rawBody: body, header: signatureHeader([secret], t + 301, body), secret, now }),
      "timestamp_out_of_tolerance",
    ],
    ["no header", () => ({ rawBody: body, header: undefined, secret, now }), "malformed_header"],
    ["no v1", () => ({ rawBody: body, header: `t=${t}`, secret, now }), "malformed_header"],
    ["garbage", () => ({ rawBody: body, header: "v1=zz,t=abc", secret, now }), "malformed_header"],
  ])("rejects %s", (_case, input, reason) => {
    expect(verifySignature(input())).toEqual({ ok: false, reason });
  });

  it("accepts any of several v1 values (rotation grace)", () => {
    const old = generateSigningSecret();
    const header = signatureHeader([secret, old], t, body);
    expect(verifySignature({ rawBody: body, header, secret: old, now }).ok).toBe(true);
    expect(verifySignature({ rawBody: body, header, secret, now }).ok).toBe(true);
  });

  it("matches the signature Stripe's own library computes", () => {
    const stripeHeader = new Stripe("sk_test_unused").webhooks.generateTestHeaderString({
      payload: body,
      secret,
      timestamp: t,
    });
    expect(stripeHeader).toBe(`t=${t},v1=${computeSignature(secret, t, body)}`);
  });

  it("makes secrets of 32 random bytes", () => {
    expect(Buffer.from(secret.slice("whsec_".length), "base64")).toHaveLength(32);
    expect(generateSigningSecret()).not.toBe(secret);
  });
});
