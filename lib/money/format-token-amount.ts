import { tokenOn } from "../config";
import { Money } from "./decimal";

/** A token amount at the token's own precision ("49.000000" for USDC), from any decimal text. */
export function formatTokenAmount(networkId: string, symbol: string, value: { toString(): string }): string {
  return new Money(value.toString()).toFixed(tokenOn(networkId, symbol).decimals);
}
