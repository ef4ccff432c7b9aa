process.env.SERVICE_SECRET_KEY ??= Buffer.alloc(32, 7).toString("base64");

import { describe, expect, it } from "vitest";
import { invoiceIdOfReceiptToken, receiptTokenFor } from "./receipt-token";

const invoiceId = "inv_AAAAAAAAAAAAAAAAAAAAAAAA";
const token = receiptTokenFor(invoiceId);
const [, mac] = token.split(".");

describe("receipt tokens", () => {
  it("name their invoice", () => {
    expect(token).toMatch(/^inv_A{24}\.[A-Za-z0-9_-]{43}$/);
    expect(invoiceIdOfReceiptToken(token)).toBe(invoiceId);
  });

  it.each([
    ["another invoice's MAC", `inv_BBBBBBBBBBBBBBBBBBBBBBBB.${mac}`],
    ["one character changed", `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`],
    ["a truncated MAC", token.slice(0, -1)],
    ["a bare invoice id", invoiceId],
    ["a huge token", `${invoiceId}.${"A".repeat(100_000)}`],
    ["a path", `../${token}`],
    ["a trailing newline", `${token}\n`],
  ])("open nothing for %s", (_case, given) => {
    expect(invoiceIdOfReceiptToken(given)).toBeNull();
  });
});
