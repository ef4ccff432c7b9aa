import type { NetworkConfig, TokenConfig } from "../chains/networks";
import { invalidRequest } from "../errors";
import { findUsdPrice, PriceUnavailable, type UsdPrice } from "../prices/find-usd-price";
import { isOwnStablecoin, type Quote, quote } from "./quote";

/**
 * How long a quote that involves a rate is promised for. A payment after it (but before the
 * invoice's deadline) is still accepted at the locked amount: the buyer saw that amount, and the
 * merchant's exposure to price moves is bounded by the deadline (1 hour).
 */
export const quoteWindowMs = 15 * 60 * 1000;

export type PricedInvoice = Quote & { quotedAt: Date; quoteSource: string; quoteExpiresAt: Date | null };

/**
 * Prices `amount currency` in the token at `now` from fresh USD prices (lib/prices); without one,
 * the buyer gets a 400 `quote_unavailable` and nothing is created.
 */
export async function priceInvoice(
  price: { amount: string; currency: string },
  network: NetworkConfig,
  token: TokenConfig,
  now: Date,
): Promise<PricedInvoice> {
  const own = isOwnStablecoin(token, price.currency);
  let prices: { token: UsdPrice; currency: UsdPrice };
  try {
    const currency = await findUsdPrice(price.currency, network, now);
    prices = {
      currency,
      token: own ? currency : await findUsdPrice(token.peggedTo ?? token.symbol, network, now),
    };
  } catch (error) {
    if (!(error instanceof PriceUnavailable)) throw error;
    throw invalidRequest(
      "quote_unavailable",
      `${token.symbol} cannot be priced in ${price.currency} right now (${error.message}); choose another token or try again later.`,
      "token",
    );
  }
  const sources = [...new Set([prices.token.source, prices.currency.source])].filter(
    (source) => source !== "USD",
  );
  return {
    ...quote(price, token, { token: prices.token.usd, currency: prices.currency.usd }),
    quotedAt: now,
    quoteSource: sources.length ? sources.join("; ") : "1:1 (USD stablecoin)",
    quoteExpiresAt: own ? null : new Date(now.getTime() + quoteWindowMs),
  };
}
