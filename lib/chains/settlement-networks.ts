import type { ChainFamilyId } from "./chain-family";

// Networks a merchant can be paid out on, each with the chain family whose addresses it takes.
export const settlementNetworks = ["devnet", "ethereum", "base", "polygon", "arbitrum"] as const;
export type SettlementNetwork = (typeof settlementNetworks)[number];
export const settlementNetworkFamilies: Record<SettlementNetwork, ChainFamilyId> = {
  devnet: "evm",
  ethereum: "evm",
  base: "evm",
  polygon: "evm",
  arbitrum: "evm",
};
