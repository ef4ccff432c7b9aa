import type { ChainFamilyId } from "./chain-family";

// Networks a merchant can be paid out on, each with the chain family whose addresses it takes.
export const settlementNetworkFamilies = {
  devnet: "evm",
  ethereum: "evm",
  base: "evm",
  polygon: "evm",
  arbitrum: "evm",
  "solana-local": "solana",
  solana: "solana",
  "solana-devnet": "solana",
} as const satisfies Record<string, ChainFamilyId>;
export type SettlementNetwork = keyof typeof settlementNetworkFamilies;
export const settlementNetworks = Object.keys(settlementNetworkFamilies) as [
  SettlementNetwork,
  ...SettlementNetwork[],
];
