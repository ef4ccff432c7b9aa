import { privateKeyToAccount } from "viem/accounts";

// On its own, apart from lib/chains/devnet.ts (process spawning, the Solidity compiler), so the
// app's test-wallet route can import it.

/** Hardhat's first development account: funded with ETH on every devnet, public knowledge. */
export const devnetFunder = privateKeyToAccount(
  "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
);

/**
 * Hardhat's second development account: the zero-setup start's test buyer, whose key it prints
 * for agents paying with x402 (docs/agents.md, "Agents that pay"). The node funds it with ETH and
 * the start mints it test USDC (scripts/devnet-setup.ts); public knowledge, like the funder's.
 */
export const devnetBuyerKey = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d" as const;
export const devnetBuyer = privateKeyToAccount(devnetBuyerKey);

/**
 * The test wallet's account (the pay page's "Pay with test wallet", `npm run devnet:pay`): the key
 * at m/44'/60'/9'/0/0 of Hardhat's test mnemonic, a path no deposit, gas, refund or facilitator
 * wallet uses, so even a devnet whose deposit addresses come from that mnemonic (the tests') never
 * pays an invoice from its own deposit address. The node sends for it by impersonation and the
 * wallet is topped up as it pays (lib/payments/pay-invoice-on-devnet.ts); public knowledge.
 */
export const devnetTestWallet = privateKeyToAccount(
  "0x173ad258f230661a939a0600e52e87674d8813f5d9ed41d98d0278de200aeeb7",
);
