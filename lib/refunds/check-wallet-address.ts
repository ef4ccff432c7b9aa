import { chainFamily } from "../chains/chain-families";
import { config } from "../config";
import { invalidRequest, serviceUnavailable } from "../errors";

/**
 * Refuses (400 `address_not_wallet`, naming `param`) an address on the network that its family
 * finds is no wallet: a Solana token account, mint, program or program-derived address, where
 * tokens sent as to an owner would reach nobody. Reads the chain, so callers check before their
 * transaction opens; 503 when the node cannot answer. The signer checks again before it signs.
 */
export async function checkWalletAddress(networkId: string, address: string, param: string) {
  const network = config().networks.find((candidate) => candidate.id === networkId);
  const family = network && chainFamily(network);
  if (!network || !family?.walletProblem) return;
  let problem: string | null;
  try {
    problem = await family.walletProblem(network, address);
  } catch (error) {
    if (family.isRpcError(error)) throw serviceUnavailable(5);
    throw error;
  }
  if (problem)
    throw invalidRequest("address_not_wallet", `Invalid ${param}: ${address} is ${problem}.`, param);
}
