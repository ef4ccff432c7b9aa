import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { propertyRuns } from "@/scripts/test-support/property-runs";
import { Money } from "../money/decimal";
import { quote } from "./quote";

const usdc = { symbol: "USDC", decimals: 6, peggedTo: "USD" };
const eurc = { symbol: "EURC", decimals: 6, peggedTo: "EUR" };
const eth = { symbol: "ETH", decimals: 18 };

describe("quote", () => {
  it.each([
    [
      "USDC for USD is 1:1",
      { amount: "49.99", currency: "USD" },
      usdc,
      { token: "1", currency: "1" },
      { amountDue: "49.990000", rate: "1", amountUsd: "49.99" },
    ],
    [
      "EURC for EUR is 1:1 whatever the feeds say",
      { amount: "10", currency: "EUR" },
      eurc,
      { token: "1.0799", currency: "1.08" },
      { amountDue: "10.000000", rate: "1", amountUsd: "10.80" },
    ],
    [
      "USDC for EUR goes through EUR/USD",
      { amount: "10", currency: "EUR" },
      usdc,
      { token: "1", currency: "1.08" },
      { amountDue: "10.800000", rate: "1.08", amountUsd: "10.80" },
    ],
    [
      "ETH for USD",
      { amount: "30", currency: "USD" },
      eth,
      { token: "3000", currency: "1" },
      { amountDue: "0.010000000000000000", rate: "0.000333333333333333", amountUsd: "30.00" },
    ],
    [
      "ETH for GBP goes through USD",
      { amount: "12", currency: "GBP" },
      eth,
      { token: "3000", currency: "1.25" },
      { amountDue: "0.005000000000000000", rate: "0.000416666666666667", amountUsd: "15.00" },
    ],
    [
      "$100,000 at 3000 USD/ETH is rounded up, not cut at 20 digits",
      { amount: "100000", currency: "USD" },
      eth,
      { token: "3000", currency: "1" },
      { amountDue: "33.333333333333333334", rate: "0.000333333333333333", amountUsd: "100000.00" },
    ],
    [
      "19.99 EUR in ETH: cents of the USD amount round half up",
      { amount: "19.99", currency: "EUR" },
      eth,
      { token: "3000", currency: "1.08" },
      { amountDue: "0.007196400000000000", rate: "0.00036", amountUsd: "21.59" },
    ],
    [
      "a token of 0 decimals rounds up to a whole unit",
      { amount: "10.01", currency: "USD" },
      { symbol: "WHOLE", decimals: 0 },
      { token: "5", currency: "1" },
      { amountDue: "3", rate: "0.2", amountUsd: "10.01" },
    ],
  ])("%s", (_case, price, token, usd, expected) => {
    expect(quote(price, token, usd)).toEqual(expected);
  });

  it("rounds token amounts up, never undercharging", () => {
    // 10 USD / 3000 = 0.00333… ETH: the 18th decimal rounds up.
    expect(quote({ amount: "10", currency: "USD" }, eth, { token: "3000", currency: "1" }).amountDue).toBe(
      "0.003333333333333334",
    );
    expect(
      quote({ amount: "0.01", currency: "EUR" }, usdc, { token: "1", currency: "1.0833333" }).amountDue,
    ).toBe("0.010834");
  });

  // Feed answers are integers over 10^8; prices from 0.00000001 to 10^8 USD.
  const usdPrice = fc
    .bigInt({ min: 1n, max: 10n ** 16n })
    .map((units) => new Money(units.toString()).div(1e8));
  const cents = fc.bigInt({ min: 1n, max: 10n ** 14n }).map((units) => new Money(units.toString()).div(100));

  it("is never under the price and never more than one base unit over (amounts 0.01 to 10^12, decimals 0 to 18)", () => {
    fc.assert(
      fc.property(
        cents,
        fc.integer({ min: 0, max: 18 }),
        usdPrice,
        usdPrice,
        (amount, decimals, token, currency) => {
          const due = new Money(
            quote(
              { amount: amount.toFixed(), currency: "EUR" },
              { symbol: "T", decimals },
              {
                token: token.toFixed(),
                currency: currency.toFixed(),
              },
            ).amountDue,
          );
          const owed = amount.mul(currency);
          const unit = new Money(10).pow(-decimals);
          expect(due.decimalPlaces()).toBeLessThanOrEqual(decimals);
          expect(due.mul(token).gte(owed)).toBe(true);
          expect(due.minus(unit).mul(token).lt(owed)).toBe(true);
        },
      ),
      { numRuns: propertyRuns(2000) },
    );
  });

  it("asks exactly the price for the currency's own stablecoin", () => {
    fc.assert(
      fc.property(cents, usdPrice, (amount, currency) => {
        const result = quote({ amount: amount.toFixed(), currency: "EUR" }, eurc, {
          token: "1",
          currency: currency.toFixed(),
        });
        expect(result.amountDue).toBe(amount.toFixed(6));
        expect(result.rate).toBe("1");
      }),
    );
  });
});
