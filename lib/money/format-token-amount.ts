import { config } from "../config";
import { Money } from "./decimal";

/** A token amount at the token's own precision ("49.000000" for USDC), from any decimal text. */
export function formatTokenAmount(networkId: string, symbol: string, value: { toString(): string }): string {
  const network = config().networks.find((candidate) => candidate.id === networkId);
  const decimals = network?.tokens.find((token) => token.symbol === symbol)?.decimals ?? 18;
  return new Money(value.toString()).toFixed(decimals);
}
