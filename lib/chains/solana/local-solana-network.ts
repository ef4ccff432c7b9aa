import type { NetworkConfig } from "../networks";
import { localTestUsdcDecimals, solanaDevnetGenesisHash } from "./local-solana-accounts";
import { localTestUsdcMint } from "./local-solana-funds";

/** The zero-setup Solana chain's network id. */
export const localSolanaNetworkId = "solana-local";

/**
 * The network configuration of the local Solana chain (lib/chains/solana/start-local-solana.ts):
 * its test USDC, counted at `confirmed` (a slot behind the tip, under a second: finalized would
 * wait 32 slots, about 13 s), flagged as a devnet so its test wallet may pay.
 */
export function localSolanaNetwork(options: { rpcUrl: string; receiver?: string }): NetworkConfig {
  return {
    id: localSolanaNetworkId,
    name: "Local Solana",
    family: "solana",
    genesisHash: solanaDevnetGenesisHash,
    commitment: "confirmed",
    rpcUrl: options.rpcUrl,
    confirmations: 1,
    blockTimeMs: 400,
    tokens: [
      { symbol: "USDC", decimals: localTestUsdcDecimals, address: localTestUsdcMint, peggedTo: "USD" },
    ],
    devnet: true,
    ...(options.receiver ? { receiver: options.receiver } : {}),
  };
}
