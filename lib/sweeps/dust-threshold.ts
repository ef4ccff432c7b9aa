import Decimal from "decimal.js";
import { formatEther } from "viem";
import type { NetworkConfig, TokenConfig } from "../chains/networks";
import { priceOf, QuoteUnavailable, type RateTable } from "../payments/quote";

/** Gas of a native transfer, and an upper estimate of an ERC-20 transfer to a fresh holder. */
export const nativeTransferGas = 21_000n;
export const tokenTransferGas = 65_000n;
/** A sweep waits until the value is worth this many times what moving it costs. */
export const dustCostMultiple = 20;

/** Gas a sweep of `token` spends: one transfer, plus the gas top-up for an ERC-20. */
export function sweepGas(token: TokenConfig): bigint {
  return token.address ? nativeTransferGas + tokenTransferGas : nativeTransferGas;
}

/**
 * The least value of `token` worth sweeping: `override` when the operator set one
 * (SERVICE_SWEEP_DUST), else dustCostMultiple times the sweep's cost at `maxFeePerGas`, priced in
 * the token through the rate table (0 when the token cannot be priced: nothing waits).
 */
export function dustThreshold(
  network: NetworkConfig,
  token: TokenConfig,
  maxFeePerGas: bigint,
  rates: RateTable,
  override?: string,
): Decimal {
  if (override !== undefined) return new Decimal(override);
  const cost = new Decimal(formatEther(sweepGas(token) * maxFeePerGas)).mul(dustCostMultiple);
  if (!token.address) return cost;
  const coin = network.tokens.find((candidate) => !candidate.address);
  try {
    if (!coin) return new Decimal(0);
    return cost
      .mul(priceOf(rates, coin.symbol, token.peggedTo ?? token.symbol))
      .toDecimalPlaces(token.decimals, Decimal.ROUND_UP);
  } catch (error) {
    if (error instanceof QuoteUnavailable) return new Decimal(0);
    throw error;
  }
}
