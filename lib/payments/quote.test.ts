import { describe, expect, it } from "vitest";
import { QuoteUnavailable, quote } from "./quote";

const usdc = { symbol: "USDC", decimals: 6, peggedTo: "USD" };
const eurc = { symbol: "EURC", decimals: 6, peggedTo: "EUR" };
const eth = { symbol: "ETH", decimals: 18 };
const rates = { "ETH/USD": "3000", "EUR/USD": "1.08", "GBP/USD": "1.25" };

describe("quote", () => {
  it.each([
    [
      "USDC for USD is 1:1",
      { amount: "49.99", currency: "USD" },
      usdc,
      { amountDue: "49.990000", rate: "1", amountUsd: "49.99" },
    ],
    [
      "EURC for EUR is 1:1",
      { amount: "10", currency: "EUR" },
      eurc,
      { amountDue: "10.000000", rate: "1", amountUsd: "10.80" },
    ],
    [
      "USDC for EUR uses the fiat rate",
      { amount: "10", currency: "EUR" },
      usdc,
      { amountDue: "10.800000", rate: "1.08", amountUsd: "10.80" },
    ],
    [
      "ETH for USD",
      { amount: "30", currency: "USD" },
      eth,
      { amountDue: "0.010000000000000000", rate: "0.000333333333333333333", amountUsd: "30.00" },
    ],
    [
      "ETH for GBP goes through USD",
      { amount: "12", currency: "GBP" },
      eth,
      { amountDue: "0.005000000000000000", rate: "0.000416666666666666667", amountUsd: "15.00" },
    ],
  ])("%s", (_case, price, token, expected) => {
    expect(quote(price, token, rates)).toEqual(expected);
  });

  it("rounds token amounts up, never undercharging", () => {
    // 10 USD / 3000 = 0.00333… ETH: the 18th decimal rounds up.
    expect(quote({ amount: "10", currency: "USD" }, eth, rates).amountDue).toBe("0.003333333333333334");
    expect(quote({ amount: "0.01", currency: "EUR" }, usdc, { "EUR/USD": "1.0833333" }).amountDue).toBe(
      "0.010834",
    );
  });

  it("never uses floats: 0.1 + 0.2 stays exact", () => {
    expect(quote({ amount: "0.30", currency: "USD" }, usdc, rates).amountDue).toBe("0.300000");
  });

  it("refuses a pair it has no rate for", () => {
    expect(() => quote({ amount: "1", currency: "JPY" }, eth, rates)).toThrow(QuoteUnavailable);
  });
});
