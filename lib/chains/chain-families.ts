import type { PublicClient } from "viem";
import type { ChainFamily, ChainFamilyId } from "./chain-family";
import { evmFamily } from "./evm/evm-family";
import type { NetworkConfig } from "./networks";
import type { SolanaRpc } from "./solana/read-solana-transfers";
import { solanaFamily } from "./solana/solana-family";

/** A connection to a network's node, of whichever family: each family's client type joins this union. */
export type ChainClient = PublicClient | SolanaRpc;

const families: Record<ChainFamilyId, ChainFamily<ChainClient>> = {
  evm: evmFamily as ChainFamily<ChainClient>,
  solana: solanaFamily as ChainFamily<ChainClient>,
};

/** Every family, in the order of chainFamilyIds. */
export function chainFamilies(): ChainFamily<ChainClient>[] {
  return Object.values(families);
}

/** A family by its id. */
export function chainFamilyById(id: ChainFamilyId): ChainFamily<ChainClient> {
  return families[id];
}

/** The family a network belongs to: EVM unless the network names another. */
export function chainFamily(network: Pick<NetworkConfig, "family">): ChainFamily<ChainClient> {
  return chainFamilyById(network.family ?? "evm");
}
