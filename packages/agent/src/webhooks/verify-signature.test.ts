import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { verifyWebhookSignature } from "./verify-signature";

const secret = "whsec_dGVzdC1zZWNyZXQtdGVzdC1zZWNyZXQtdGVzdC1zZWNyZXQ=";
const otherSecret = "whsec_b3RoZXItc2VjcmV0LW90aGVyLXNlY3JldC1vdGhlci1zZWM=";
const body = '{"id":"evt_1","type":"payment.confirmed","data":{"amount":"25.00"}}';
const now = new Date("2026-11-23T12:00:00Z");
const t = Math.floor(now.getTime() / 1000);
const sign = (key: string, timestamp: number, raw: string) =>
  createHmac("sha256", key).update(`${timestamp}.${raw}`).digest("hex");

describe("verifyWebhookSignature", () => {
  it.each([
    ["a valid signature", `t=${t},v1=${sign(secret, t, body)}`, body, { valid: true, timestamp: t }],
    [
      "one valid v1 among several (rotation grace)",
      `t=${t},v1=${sign(otherSecret, t, body)},v1=${sign(secret, t, body)}`,
      body,
      { valid: true, timestamp: t },
    ],
    ["spaces after commas", `t=${t}, v1=${sign(secret, t, body)}`, body, { valid: true, timestamp: t }],
    [
      "exactly 300 s old",
      `t=${t - 300},v1=${sign(secret, t - 300, body)}`,
      body,
      { valid: true, timestamp: t - 300 },
    ],
  ])("accepts %s", (_name, header, raw, expected) => {
    expect(verifyWebhookSignature({ rawBody: raw, header, secret, now })).toEqual(expected);
  });

  it.each([
    [
      "a tampered body",
      `t=${t},v1=${sign(secret, t, body)}`,
      body.replace("25.00", "2500.00"),
      "signature_mismatch",
    ],
    [
      "re-serialized JSON",
      `t=${t},v1=${sign(secret, t, body)}`,
      JSON.stringify(JSON.parse(body), null, 1),
      "signature_mismatch",
    ],
    ["another secret", `t=${t},v1=${sign(otherSecret, t, body)}`, body, "signature_mismatch"],
    ["a changed timestamp", `t=${t + 1},v1=${sign(secret, t, body)}`, body, "signature_mismatch"],
    ["301 s old", `t=${t - 301},v1=${sign(secret, t - 301, body)}`, body, "timestamp_out_of_tolerance"],
    [
      "301 s in the future",
      `t=${t + 301},v1=${sign(secret, t + 301, body)}`,
      body,
      "timestamp_out_of_tolerance",
    ],
    ["no timestamp", `v1=${sign(secret, t, body)}`, body, "malformed_header"],
    ["no v1", `t=${t}`, body, "malformed_header"],
    ["a v0 scheme only", `t=${t},v0=${sign(secret, t, body)}`, body, "malformed_header"],
    ["a short signature", `t=${t},v1=abc123`, body, "malformed_header"],
    ["a non-numeric timestamp", `t=12e8,v1=${sign(secret, t, body)}`, body, "malformed_header"],
    ["an empty header", "", body, "malformed_header"],
  ])("rejects %s", (_name, header, raw, reason) => {
    expect(verifyWebhookSignature({ rawBody: raw, header, secret, now })).toEqual({ valid: false, reason });
  });
});
