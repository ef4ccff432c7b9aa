import { formatEther } from "viem";
import type { TokenConfig } from "../chains/networks";
import { Money } from "../money/decimal";
import { nativeTransferGas, tokenTransferGas } from "../signer/estimate-transfer-gas";

/** A sweep waits until the value is worth this many times what moving it costs. */
export const dustCostMultiple = 20;

/** Gas a sweep of `token` spends: one transfer, plus the gas top-up for an ERC-20. */
export function sweepGas(token: TokenConfig): bigint {
  return token.address ? nativeTransferGas + tokenTransferGas : nativeTransferGas;
}

/**
 * The least value of `token` worth sweeping: `override` when the operator set one
 * (SERVICE_SWEEP_DUST), else dustCostMultiple times the sweep's cost at `maxFeePerGas`, priced in
 * the token at `coinInToken` (the native coin's price in the token). Null when there is no fresh
 * price to judge it: nothing is swept until there is, rather than everything at any cost.
 */
export function dustThreshold(
  token: TokenConfig,
  maxFeePerGas: bigint,
  coinInToken: string | null,
  override?: string,
): Money | null {
  if (override !== undefined) return new Money(override);
  const cost = new Money(formatEther(sweepGas(token) * maxFeePerGas)).mul(dustCostMultiple);
  if (!token.address) return cost;
  if (coinInToken === null) return null;
  return cost.mul(coinInToken).toDecimalPlaces(token.decimals, Money.ROUND_UP);
}
