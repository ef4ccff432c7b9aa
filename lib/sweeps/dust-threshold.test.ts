import { describe, expect, it } from "vitest";
import type { NetworkConfig } from "../chains/networks";
import { dustThreshold } from "./dust-threshold";

const network: NetworkConfig = {
  id: "base",
  name: "Base",
  chainId: 8453,
  rpcUrl: "http://127.0.0.1:1",
  confirmations: 10,
  tokens: [
    { symbol: "ETH", decimals: 18 },
    { symbol: "USDC", decimals: 6, address: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", peggedTo: "USD" },
    { symbol: "XYZ", decimals: 18, address: "0x0000000000000000000000000000000000000001" },
  ],
};
const gwei = 1_000_000_000n;

// token, max fee per gas, override, threshold. ETH: 20 x 21,000 gas; USDC: 20 x (21,000 top-up +
// 65,000 transfer) gas at 3,000 USD/ETH, rounded up to 6 decimals; XYZ has no rate: no threshold
// (null: nothing is swept), unless the operator set one.
const table: [string, bigint, string | undefined, string | null][] = [
  ["ETH", 1n * gwei, undefined, "0.00042"],
  ["ETH", 10n * gwei, undefined, "0.0042"],
  ["USDC", 1n * gwei, undefined, "5.16"],
  ["USDC", 3n, undefined, "0.000001"],
  ["USDC", 1n * gwei, "2.5", "2.5"],
  ["XYZ", 1n * gwei, undefined, null],
  ["XYZ", 1n * gwei, "3", "3"],
  ["ETH", 0n, undefined, "0"],
];

describe("dustThreshold", () => {
  it.each(table)("%s at %s wei/gas, override %s -> %s", (symbol, fee, override, expected) => {
    const token = network.tokens.find((candidate) => candidate.symbol === symbol);
    if (!token) throw new Error(symbol);
    const coinInToken = symbol === "USDC" ? "3000" : symbol === "ETH" ? "1" : null;
    expect(dustThreshold(token, fee, coinInToken, override)?.toFixed() ?? null).toBe(expected);
  });
});
