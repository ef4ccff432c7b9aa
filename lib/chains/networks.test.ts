import { describe, expect, it } from "vitest";
import { parseNetworks } from "./networks";

describe("parseNetworks", () => {
  it("completes a preset from its id and an RPC URL", () => {
    const [base] = parseNetworks('[{"id": "base", "rpcUrl": "https://base.example/rpc"}]');
    expect(base).toMatchObject({ chainId: 8453, confirmations: 10, rpcUrl: "https://base.example/rpc" });
    expect(base.tokens.find((token) => token.symbol === "USDC")?.address).toBe(
      "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
    );
  });

  it("completes the Solana preset: mainnet-beta's genesis, finalized commitment, Circle's and Tether's mints", () => {
    const [solana] = parseNetworks('[{"id": "solana", "rpcUrl": "https://solana.example/rpc"}]');
    expect(solana).toMatchObject({
      family: "solana",
      genesisHash: "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d",
      commitment: "finalized",
      confirmations: 1,
    });
    expect(solana.chainId).toBeUndefined();
    expect(solana.tokens).toEqual([
      {
        symbol: "USDC",
        decimals: 6,
        address: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
        peggedTo: "USD",
      },
      {
        symbol: "USDT",
        decimals: 6,
        address: "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB",
        peggedTo: "USD",
      },
    ]);
  });

  it("completes the Solana devnet preset: devnet's genesis, Circle's devnet USDC, the explorer's devnet cluster", () => {
    const [devnet] = parseNetworks('[{"id": "solana-devnet", "rpcUrl": "https://api.devnet.solana.com"}]');
    expect(devnet).toMatchObject({
      family: "solana",
      genesisHash: "EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG",
      commitment: "finalized",
      explorerUrl: "https://explorer.solana.com?cluster=devnet",
      tokens: [{ symbol: "USDC", address: "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU" }],
    });
  });

  it("lists each preset's native coin, without a contract address", () => {
    const networks = parseNetworks(
      JSON.stringify(
        ["ethereum", "base", "polygon", "arbitrum"].map((id) => ({ id, rpcUrl: "https://x.example" })),
      ),
    );
    expect(networks.map((network) => network.tokens.find((token) => !token.address))).toEqual([
      { symbol: "ETH", decimals: 18 },
      { symbol: "ETH", decimals: 18 },
      { symbol: "POL", decimals: 18 },
      { symbol: "ETH", decimals: 18 },
    ]);
  });

  it("gives each preset Chainlink price feeds for its native coin, with staleness limits", () => {
    const networks = parseNetworks(
      JSON.stringify(
        ["ethereum", "base", "polygon", "arbitrum"].map((id) => ({ id, rpcUrl: "https://x.example" })),
      ),
    );
    expect(
      networks.map((network) => network.priceFeeds?.map((feed) => [feed.pair, feed.maxAgeSeconds])),
    ).toEqual([
      [
        ["ETH/USD", 4500],
        ["EUR/USD", 108_000],
        ["GBP/USD", 108_000],
      ],
      [["ETH/USD", 1500]],
      [["POL/USD", 4500]],
      [["ETH/USD", 108_000]],
    ]);
  });

  it("names each preset USDC's EIP-712 domain, for x402 payers to sign", () => {
    const networks = parseNetworks(
      JSON.stringify(
        ["ethereum", "base", "polygon", "arbitrum"].map((id) => ({ id, rpcUrl: "https://x.example" })),
      ),
    );
    for (const network of networks)
      expect(network.tokens.filter((token) => token.eip3009)).toEqual([
        expect.objectContaining({ symbol: "USDC", eip3009: { name: "USD Coin", version: "2" } }),
      ]);
  });

  it("takes a complete network without a preset, and overrides a preset's fields", () => {
    const [devnet, ethereum] = parseNetworks(
      JSON.stringify([
        {
          id: "devnet",
          name: "Local devnet",
          chainId: 31337,
          rpcUrl: "http://127.0.0.1:8545",
          confirmations: 2,
          tokens: [{ symbol: "USDC", decimals: 6, address: `0x${"1".repeat(40)}`, peggedTo: "USD" }],
        },
        { id: "ethereum", rpcUrl: "https://eth.example", confirmations: 20 },
      ]),
    );
    expect(devnet.chainId).toBe(31337);
    expect(ethereum.confirmations).toBe(20);
  });

  it.each([
    ['[{"id": "base"}]', "rpcUrl"],
    ['[{"id": "nowhere", "rpcUrl": "https://x.example"}]', "name"],
    [
      '[{"id": "nowhere", "name": "N", "rpcUrl": "https://x.example", "confirmations": 1, "tokens": [{"symbol": "ETH", "decimals": 18}]}]',
      "an EVM network needs its chain id",
    ],
    ['[{"id": "solana"}]', "rpcUrl"],
    [
      '[{"id": "solana", "rpcUrl": "https://x.example", "tokens": [{"symbol": "USDC", "decimals": 6, "address": "0x1111111111111111111111111111111111111111"}]}]',
      "must be an SPL mint",
    ],
    ['[{"id": "solana", "rpcUrl": "https://x.example", "chainId": 1}]', "a Solana network has no chain id"],
    ['[{"id": "base", "rpcUrl": "https://x.example", "commitment": "finalized"}]', "is for Solana networks"],
    [
      '[{"id": "base", "rpcUrl": "https://x.example", "tokens": [{"symbol": "USDC", "decimals": 6, "address": "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"}]}]',
      "must be a 0x address",
    ],
    ['[{"id": "base", "rpcUrl": "https://x.example", "confirmations": 0}]', "confirmations"],
    [
      '[{"id": "base", "rpcUrl": "https://x.example", "tokens": [{"symbol": "ETH", "decimals": 18}, {"symbol": "WEI", "decimals": 18}]}]',
      "native coin",
    ],
    // Amounts are stored as numeric(78, 18): a token with more decimals could not be.
    [
      '[{"id": "base", "rpcUrl": "https://x.example", "tokens": [{"symbol": "BIG", "decimals": 19, "address": "0x1111111111111111111111111111111111111111"}]}]',
      "decimals",
    ],
    [
      '[{"id": "base", "rpcUrl": "https://x.example", "priceFeeds": [{"pair": "ETH/EUR", "address": "0x1111111111111111111111111111111111111111", "maxAgeSeconds": 60}]}]',
      "ASSET/USD",
    ],
    [
      '[{"id": "base", "rpcUrl": "https://x.example", "priceFeeds": [{"pair": "ETH/USD", "address": "0x1111111111111111111111111111111111111111"}]}]',
      "maxAgeSeconds",
    ],
    [
      '[{"id": "base", "rpcUrl": "https://x.example", "tokens": [{"symbol": "ETH", "decimals": 18, "eip3009": {"name": "Ether", "version": "1"}}]}]',
      "only an ERC-20 contract (a token with address) implements EIP-3009",
    ],
    [
      '[{"id": "base", "rpcUrl": "https://x.example", "tokens": [{"symbol": "USDC", "decimals": 6, "address": "0x1111111111111111111111111111111111111111", "eip3009": {"name": "USD Coin"}}]}]',
      "version",
    ],
    ['[{"id": "base", "rpcUrl": "https://x.example", "explorerUrl": "https://basescan.org/"}]', "slash"],
    ['[{"id": "base", "rpcUrl": "https://x.example", "explorerUrl": "https://basescan.org#tx"}]', "fragment"],
    ['[{"id": "base", "rpcUrl": "https://x.example", "explorerUrl": "http://basescan.org"}]', "explorerUrl"],
  ])("rejects %s", (json, field) => {
    expect(() => parseNetworks(json)).toThrow(field);
  });
});
