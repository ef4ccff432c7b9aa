import { z } from "zod";
import { chainFamilyIds } from "./chain-family";
import { solanaDevnetGenesisHash } from "./solana/local-solana-accounts";
import { solanaAddresses } from "./solana/solana-addresses";

// Networks come from configuration (SERVICE_NETWORKS, JSON): chain id, RPC URL, confirmations and
// tokens. Presets carry the main EVM networks' native coin (a token without `address`; the
// watcher follows plain value transfers) and well-known stablecoin contracts, so adding one takes
// `{"id": "base", "rpcUrl": "…"}`.

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, { error: "must be a 0x address" });
/** A base58 Solana address (32 bytes: 32 to 44 characters); the family's rules check it whole. */
const base58Address = z
  .string()
  .regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/, { error: "must be a base58 Solana address" });

/** The chain id of a local Hardhat node, the only chain whose invoices the test wallet may pay. */
export const hardhatChainId = 31337;

/** Token amounts are stored as numeric(78, 18): a token with more decimals could not be stored exactly. */
export const maxTokenDecimals = 18;

export const tokenSchema = z
  .strictObject({
    symbol: z.string().regex(/^[A-Z0-9]{2,10}$/),
    decimals: z.number().int().min(0).max(maxTokenDecimals),
    /** The ERC-20 contract or the SPL mint; absent for the chain's native coin. */
    address: z.union([address, base58Address]).optional(),
    /** The fiat a stablecoin is priced 1:1 against. */
    peggedTo: z.enum(["USD", "EUR", "GBP"]).optional(),
    /**
     * The token's EIP-712 domain when it implements EIP-3009 (transferWithAuthorization): x402
     * payers sign it, so the name and version must be the contract's own (lib/x402/x402-networks.ts).
     */
    eip3009: z
      .strictObject({ name: z.string().min(1).max(64), version: z.string().min(1).max(16) })
      .optional(),
  })
  .refine((token) => !token.eip3009 || token.address !== undefined, {
    path: ["eip3009"],
    error: "only an ERC-20 contract (a token with address) implements EIP-3009",
  });

/**
 * A Chainlink-style aggregator (AggregatorV3Interface) on this network giving the USD price of
 * one unit of an asset (a coin's symbol or a fiat code). A reading older than `maxAgeSeconds`
 * (the feed's heartbeat plus a margin) is never used.
 */
export const priceFeedSchema = z.strictObject({
  pair: z.string().regex(/^[A-Z0-9]{2,10}\/USD$/, { error: "must be ASSET/USD, e.g. ETH/USD" }),
  address,
  maxAgeSeconds: z
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 3600),
});

export const networkSchema = z
  .strictObject({
    id: z.string().regex(/^[a-z0-9-]{2,32}$/),
    name: z.string().min(1),
    /** The chain family that speaks to it (lib/chains/chain-family.ts); EVM when absent. */
    family: z.enum(chainFamilyIds).optional(),
    /** An EVM chain's id (EIP-155); a Solana network has none. */
    chainId: z.number().int().positive().optional(),
    /**
     * A Solana network's genesis hash (base58): its CAIP-2 id is `solana:` and its first 32
     * characters, as x402 names it.
     */
    genesisHash: base58Address.optional(),
    /**
     * The Solana commitment the watcher counts payments at: `finalized` (the default; never rolled
     * back) or `confirmed` (a supermajority voted; about a second on a real cluster).
     */
    commitment: z.enum(["confirmed", "finalized"]).optional(),
    /**
     * The service's receiving wallet on a Solana network (the Solana Pay recipient every invoice
     * pays, told apart by its reference): derived from the mnemonic when absent, so a web tier that
     * holds no key is given it (SERVICE_NETWORKS).
     */
    receiver: base58Address.optional(),
    /**
     * The service's fee payer on a Solana network, which co-signs agents' x402 transactions (the
     * requirements' `extra.feePayer`): derived from the mnemonic when absent, so a web tier that
     * holds no key and settles through the signing role's facilitator is given it.
     */
    feePayer: base58Address.optional(),
    rpcUrl: z.url(),
    confirmations: z.number().int().min(1).max(200),
    tokens: z
      .array(tokenSchema)
      .min(1)
      .refine((tokens) => tokens.filter((token) => !token.address).length <= 1, {
        error: "a network has at most one native coin (a token without address)",
      }),
    /**
     * A local development chain (Hardhat) whose funded test account may pay its invoices: the
     * checkout's "Pay with test wallet" button. Set by the zero-setup start (scripts/devnet-setup.ts).
     */
    devnet: z.boolean().optional(),
    /**
     * Most blocks one getLogs may span (default 2,000, the tightest limit of the common providers);
     * the watcher scans a longer gap, after downtime, in ranges of this size.
     */
    maxBlockRange: z.number().int().min(1).max(1_000_000).optional(),
    /** Average time between blocks; the watcher polls for a new head at a fraction of it. */
    blockTimeMs: z.number().int().min(100).max(600_000).optional(),
    /** Price feeds read on this network (see lib/prices/find-usd-price.ts for the fallback order). */
    priceFeeds: z.array(priceFeedSchema).optional(),
    /**
     * Block explorer base (https, no trailing slash): pages link its path plus `/address/…` and
     * `/tx/…`, its query kept (`https://explorer.solana.com?cluster=devnet`; lib/chains/explorer-page.ts).
     * None for a local chain: its transactions are shown, copyable, without a link.
     */
    explorerUrl: z
      .url({ protocol: /^https$/ })
      .refine((url) => !url.endsWith("/") && !url.includes("#"), {
        error: "must not end with a slash or hold a fragment",
      })
      .optional(),
  })
  .superRefine((network, context) => {
    const solana = network.family === "solana";
    const problem = (path: string, message: string) =>
      context.addIssue({ code: "custom", path: [path], message });
    if (solana) {
      if (network.chainId !== undefined) problem("chainId", "a Solana network has no chain id");
      if (!network.genesisHash) problem("genesisHash", "a Solana network needs its genesis hash");
      for (const [index, token] of network.tokens.entries())
        if (!token.address || token.address.startsWith("0x") || token.eip3009)
          // SOL itself would need a price source this family does not read yet (README, Networks).
          context.addIssue({ code: "custom", path: ["tokens", index], message: "must be an SPL mint" });
      if (network.priceFeeds?.length) problem("priceFeeds", "price feeds are read on EVM networks");
      // The local chain's test wallet pays with public keys, and its genesis hash is devnet's: only
      // a chain on this machine may be one.
      if (network.devnet && !["127.0.0.1", "localhost", "[::1]"].includes(new URL(network.rpcUrl).hostname))
        problem("devnet", "only the local Solana chain (an RPC URL on this machine) can be a devnet");
      // A confirmed block may still be dropped; only the local chain, which drops none, counts at it.
      if (network.commitment === "confirmed" && !network.devnet)
        problem("commitment", "must be finalized on a real Solana network");
      for (const key of ["receiver", "feePayer"] as const) {
        const value = network[key];
        if (value && "problem" in solanaAddresses.parse(value))
          problem(key, `must be ${solanaAddresses.format}`);
      }
      return;
    }
    if (network.chainId === undefined) problem("chainId", "an EVM network needs its chain id");
    for (const key of ["genesisHash", "commitment", "receiver", "feePayer"] as const)
      if (network[key] !== undefined) problem(key, "is for Solana networks");
    for (const [index, token] of network.tokens.entries())
      if (token.address !== undefined && !token.address.startsWith("0x"))
        context.addIssue({
          code: "custom",
          path: ["tokens", index, "address"],
          message: "must be a 0x address",
        });
    if (network.devnet && network.chainId !== hardhatChainId)
      problem("devnet", `only a local Hardhat chain (chain id ${hardhatChainId}) can be a devnet`);
  });

export type TokenConfig = z.output<typeof tokenSchema>;
export type PriceFeedConfig = z.output<typeof priceFeedSchema>;
export type NetworkConfig = z.output<typeof networkSchema>;
/** An EVM network, whose chain id is known (the devnet's, a test's). */
export type EvmNetworkConfig = NetworkConfig & { chainId: number };

// Circle's USDC on these presets is FiatToken v2.2: EIP-3009 with domain ("USD Coin", "2"), as
// @x402/evm's default assets list it for the same addresses.
const usdc = (address: string) => ({
  symbol: "USDC",
  decimals: 6,
  address,
  peggedTo: "USD" as const,
  eip3009: { name: "USD Coin", version: "2" },
});
const usdt = (address: string) => ({ symbol: "USDT", decimals: 6, address, peggedTo: "USD" as const });
const native = (symbol: string) => ({ symbol, decimals: 18 });
// Chainlink's published feeds (docs.chain.link/data-feeds/price-feeds/addresses); the limit is
// the feed's heartbeat plus a margin, so one late round does not stop checkout.
const feed = (pair: string, address: string, heartbeatSeconds: number) => ({
  pair,
  address,
  maxAgeSeconds: Math.ceil(heartbeatSeconds * 1.25),
});

/** Solana mainnet-beta's genesis hash (its CAIP-2 id: `solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp`). */
export const solanaMainnetGenesisHash = "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdpKuc147dw2N9d";

export const networkPresets: Record<string, Omit<NetworkConfig, "rpcUrl">> = {
  ethereum: {
    id: "ethereum",
    name: "Ethereum",
    explorerUrl: "https://etherscan.io",
    chainId: 1,
    confirmations: 12,
    blockTimeMs: 12_000,
    tokens: [
      native("ETH"),
      usdc("0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48"),
      usdt("0xdAC17F958D2ee523a2206206994597C13D831ec7"),
    ],
    priceFeeds: [
      feed("ETH/USD", "0x5f4eC3Df9cbd43714FE2740f5E3616155c5b8419", 3600),
      feed("EUR/USD", "0xb49f677943BC038e9857d61E7d053CaA2C1734C1", 86_400),
      feed("GBP/USD", "0x5c0Ab2d9b5a7ed9f470386e82BB36A3613cDd4b5", 86_400),
    ],
  },
  base: {
    id: "base",
    name: "Base",
    explorerUrl: "https://basescan.org",
    chainId: 8453,
    confirmations: 10,
    blockTimeMs: 2_000,
    tokens: [native("ETH"), usdc("0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913")],
    priceFeeds: [feed("ETH/USD", "0x71041dddad3595F9CEd3DcCFBe3D1F4b0a16Bb70", 1200)],
  },
  polygon: {
    id: "polygon",
    name: "Polygon",
    explorerUrl: "https://polygonscan.com",
    chainId: 137,
    confirmations: 64,
    blockTimeMs: 2_000,
    tokens: [
      native("POL"),
      usdc("0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359"),
      usdt("0xc2132D05D31c914a87C6611C10748AEb04B58e8F"),
    ],
    priceFeeds: [feed("POL/USD", "0xAB594600376Ec9fD91F8e885dADF0CE036862dE0", 3600)],
  },
  arbitrum: {
    id: "arbitrum",
    name: "Arbitrum One",
    explorerUrl: "https://arbiscan.io",
    chainId: 42161,
    confirmations: 10,
    blockTimeMs: 250,
    tokens: [
      native("ETH"),
      usdc("0xaf88d065e77c8cC2239327C5EDb3A432268e5831"),
      usdt("0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9"),
    ],
    priceFeeds: [feed("ETH/USD", "0x639Fe6ab55C921f74e7fac1ee960C0B6293ba612", 86_400)],
  },
  // A transfer counts once its slot reaches the commitment: one "confirmation" suffices.
  solana: {
    id: "solana",
    name: "Solana",
    family: "solana",
    genesisHash: solanaMainnetGenesisHash,
    commitment: "finalized",
    explorerUrl: "https://explorer.solana.com",
    confirmations: 1,
    blockTimeMs: 400,
    tokens: [
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
    ],
  },
  // Solana's public test cluster: Circle's devnet USDC (free from its faucet); its explorer pages
  // name the cluster in the query.
  "solana-devnet": {
    id: "solana-devnet",
    name: "Solana Devnet",
    family: "solana",
    genesisHash: solanaDevnetGenesisHash,
    commitment: "finalized",
    explorerUrl: "https://explorer.solana.com?cluster=devnet",
    confirmations: 1,
    blockTimeMs: 400,
    tokens: [
      {
        symbol: "USDC",
        decimals: 6,
        address: "4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU",
        peggedTo: "USD",
      },
    ],
  },
};

/** Parses SERVICE_NETWORKS: a list of networks, each a preset id plus overrides, or complete. */
export function parseNetworks(json: string): NetworkConfig[] {
  const raw = z.array(z.record(z.string(), z.unknown())).parse(JSON.parse(json));
  return raw.map((entry) => networkSchema.parse({ ...networkPresets[String(entry.id)], ...entry }));
}

/** An EVM network's chain id; an error on a network of another family (its caller is EVM code). */
export function evmChainId(network: NetworkConfig): number {
  if (network.chainId === undefined) throw new Error(`network ${network.id} has no EVM chain id`);
  return network.chainId;
}

export function findToken(network: NetworkConfig, symbol: string): TokenConfig | undefined {
  return network.tokens.find((token) => token.symbol === symbol);
}
