import { config } from "../config";

/** The symbol of a configured network's native coin ("ETH", "POL"), the unit of gas balances. */
export function nativeCoinSymbol(networkId: string): string {
  const network = config().networks.find((candidate) => candidate.id === networkId);
  return network?.tokens.find((token) => !token.address)?.symbol ?? "coin";
}
