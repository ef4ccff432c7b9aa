import type { PublicClient } from "viem";
import type { ChainFamily, ChainFamilyId } from "./chain-family";
import { evmFamily } from "./evm/evm-family";
import type { NetworkConfig } from "./networks";

/** A connection to a network's node, of whichever family: each family's client type joins this union. */
export type ChainClient = PublicClient;

const families: Record<ChainFamilyId, ChainFamily<ChainClient>> = { evm: evmFamily };

/** The family a network belongs to: the only place that maps one to the other. */
export function chainFamily(network: NetworkConfig): ChainFamily<ChainClient> {
  return families[network.family ?? "evm"];
}
