import Decimal from "decimal.js";

// Quotes turn a price in a pricing currency into an exact token amount, frozen on the invoice.
// Stablecoins are priced 1:1 against their own fiat; other pairs come from a rate provider (a
// static, configurable table on the devnet). Token amounts round up to the token's precision, so
// a quote never asks for less than the price.

export type QuoteToken = { symbol: string; decimals: number; peggedTo?: string };
/** "A/B": the price of one A in B, e.g. { "ETH/USD": "3000", "EUR/USD": "1.08" }. */
export type RateTable = Record<string, Decimal.Value>;
export type Quote = { amountDue: string; rate: string; amountUsd: string };

export class QuoteUnavailable extends Error {}

/** The price of one `base` in `quote`: direct, inverse, or through USD. */
export function priceOf(rates: RateTable, base: string, quote: string): Decimal {
  if (base === quote) return new Decimal(1);
  const direct = rates[`${base}/${quote}`];
  if (direct !== undefined) return new Decimal(direct);
  const inverse = rates[`${quote}/${base}`];
  if (inverse !== undefined) return new Decimal(1).div(inverse);
  if (base !== "USD" && quote !== "USD") return priceOf(rates, base, "USD").div(priceOf(rates, quote, "USD"));
  throw new QuoteUnavailable(`no rate for ${base} in ${quote}`);
}

export function quote(
  price: { amount: Decimal.Value; currency: string },
  token: QuoteToken,
  rates: RateTable,
): Quote {
  const tokenValue = priceOf(rates, token.peggedTo ?? token.symbol, price.currency);
  const amountDue = new Decimal(price.amount)
    .div(tokenValue)
    .toDecimalPlaces(token.decimals, Decimal.ROUND_UP);
  const amountUsd = new Decimal(price.amount).mul(priceOf(rates, price.currency, "USD"));
  return {
    amountDue: amountDue.toFixed(token.decimals),
    rate: new Decimal(1).div(tokenValue).toSignificantDigits(18).toFixed(),
    amountUsd: amountUsd.toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2),
  };
}
