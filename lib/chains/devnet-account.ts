import { privateKeyToAccount } from "viem/accounts";

// On its own, apart from lib/chains/devnet.ts (process spawning, the Solidity compiler), so the
// app's test-wallet route can import it.

/** Hardhat's first development account: funded with ETH on every devnet, public knowledge. */
export const devnetFunder = privateKeyToAccount(
  "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
);
