import { base58 } from "@scure/base";
import { solanaServiceKey, solanaWalletKey } from "./solana-keys";

// The local chain's well-known accounts: keys of Hardhat's public test mnemonic, as the EVM devnet
// uses its accounts (lib/chains/devnet-account.ts), so every start has the same addresses and a
// wallet that imports the mnemonic sees them. Public knowledge: local chain only.

/** Hardhat's test mnemonic, whose keys are public. */
export const localSolanaMnemonic = "test test test test test test test test test test test junk";

/** Account #0 (m/44'/501'/0'/0'): holds the chain's SOL from genesis, pays airdrops, mints test USDC. */
export const localSolanaFunder = solanaWalletKey(localSolanaMnemonic, 0);

/** Account #1 (m/44'/501'/1'/0'): the test buyer, funded with SOL and test USDC at start. */
export const localSolanaBuyer = solanaWalletKey(localSolanaMnemonic, 1);

/** The test USDC mint's own key (the service's test-mint role), so its address is the same on every start. */
export const localTestUsdcMintKey = solanaServiceKey(localSolanaMnemonic, "testUsdcMint");

/** The test USDC's decimals, as Circle's USDC on Solana. */
export const localTestUsdcDecimals = 6;

/**
 * Solana devnet's genesis hash, which the local chain answers as its own: x402's SVM client accepts
 * only mainnet, devnet and testnet ids, and must pay the local chain unmodified.
 */
export const solanaDevnetGenesisHash = "EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG";

/** A key pair's 64-byte secret (private key, then public key) in base58, as Phantom and Solflare import it. */
export function walletSecret(key: { secretKey: Uint8Array; publicKey: Uint8Array }): string {
  return base58.encode(new Uint8Array([...key.secretKey, ...key.publicKey]));
}
