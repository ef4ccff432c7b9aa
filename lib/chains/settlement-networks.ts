// Networks a merchant can be paid out on; each takes an EVM address.
export const settlementNetworks = ["devnet", "ethereum", "base", "polygon", "arbitrum"] as const;
export type SettlementNetwork = (typeof settlementNetworks)[number];
