import { divideUp, Money, type MoneyValue } from "../money/decimal";

// Quotes turn a price in a pricing currency into an exact token amount, frozen on the invoice.
// Both sides are priced in USD (lib/prices/find-usd-price.ts); a stablecoin against its own fiat
// is exactly 1:1 whatever the feeds say. Token amounts round up at the token's precision, so a
// quote never asks for less than the price, and never more than one base unit over it.

export type QuoteToken = { symbol: string; decimals: number; peggedTo?: string };
/** USD per unit of the token (or its peg) and of the pricing currency. */
export type UsdPrices = { token: MoneyValue; currency: MoneyValue };
export type Quote = {
  amountDue: string;
  /** Token units per unit of the pricing currency, at the 18 decimals the invoice stores. */
  rate: string;
  /** The price in USD, at cents. */
  amountUsd: string;
};

/** True when the token is the pricing currency's own stablecoin: 1:1, no rate involved. */
export const isOwnStablecoin = (token: QuoteToken, currency: string) => token.peggedTo === currency;

export function quote(
  price: { amount: MoneyValue; currency: string },
  token: QuoteToken,
  usd: UsdPrices,
): Quote {
  const amount = new Money(price.amount);
  const own = isOwnStablecoin(token, price.currency);
  const amountDue = own
    ? divideUp(amount, 1, token.decimals)
    : divideUp(amount.mul(usd.currency), usd.token, token.decimals);
  const rate = own ? new Money(1) : new Money(usd.currency).div(usd.token);
  return {
    amountDue: amountDue.toFixed(token.decimals),
    rate: rate.toDecimalPlaces(18, Money.ROUND_HALF_UP).toFixed(),
    amountUsd: amount.mul(usd.currency).toFixed(2, Money.ROUND_HALF_UP),
  };
}
