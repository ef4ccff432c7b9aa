import { tokenOn } from "@/lib/config";
import { formatDecimal } from "@/lib/money/decimal";
import { ExactOnCopy } from "./exact-on-copy";
import { formatTokenAmountShort } from "./format";

/** A token amount at the token's display precision ("99.999854 ETH"), exact in its tooltip and on copy. */
export function TokenAmount({
  amount,
  symbol,
  network,
}: {
  amount: { toString(): string };
  symbol: string;
  network: string;
}) {
  const exact = `${formatDecimal(amount)} ${symbol}`;
  return <ExactOnCopy exact={exact}>{formatTokenAmountShort(amount, tokenOn(network, symbol))}</ExactOnCopy>;
}
