process.env.SERVICE_SECRET_KEY = Buffer.alloc(32, 9).toString("base64");

import { describe, expect, it } from "vitest";
import { readX402Quote, signX402Quote, type X402Quote } from "./x402-quote-token";

const quote: X402Quote = {
  resource: { kind: "paylink", id: "5b0f3c1e-8a52-4d8e-9b1f-2c7d3e4f5a6b" },
  network: "base",
  token: "USDC",
  amount: "5000000",
  amountDue: "5.000000",
  rate: "1",
  amountUsd: "5.00",
  quotedAt: "2026-11-26T23:00:00.000Z",
  quoteSource: "1:1 (USD stablecoin)",
  quoteExpiresAt: null,
  derivationIndex: 2 ** 30 + 7,
  payTo: "0x209693Bc6afc0C5328bA36FaF03C514EF312287C",
  invoiceId: null,
  expiresAt: "2026-11-26T23:10:00.000Z",
};
const token = signX402Quote(quote);
const [body, signature] = token.split(".");
const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
// Signed by the same key, but not a quote: only the shape check can refuse it.
const notAQuote = signX402Quote({ amount: "1" } as unknown as X402Quote);
const otherSignature = signX402Quote({ ...quote, amount: "1" }).split(".")[1];

describe("x402 quote tokens", () => {
  it("reads back the quote it signed", () => {
    expect(readX402Quote(token)).toEqual(quote);
  });

  it.each([
    ["another amount", `${encode({ ...quote, amount: "1" })}.${signature}`],
    ["another quote's signature", `${body}.${otherSignature}`],
    ["a truncated signature", `${body}.${signature.slice(0, 10)}`],
    ["no signature", body],
    ["a third part", `${token}.x`],
    ["a signed body that is not a quote", notAQuote],
    ["a number", 42],
    ["nothing", undefined],
  ])("refuses %s", (_name, candidate) => {
    expect(readX402Quote(candidate)).toBeUndefined();
  });
});
