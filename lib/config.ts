import { isIP } from "node:net";
import { HDKey } from "@scure/bip32";
import { validateMnemonic } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import { getAddress, isAddress } from "viem";
import { z } from "zod";
import { chainFamily } from "./chains/chain-families";
import { explorerPage } from "./chains/explorer-page";
import { maxTokenDecimals, type NetworkConfig, parseNetworks, type TokenConfig } from "./chains/networks";
import {
  booleanFlag,
  configuredRatesSchema,
  httpUrl,
  isLocalUrl,
  isLoopbackHost,
  jsonRecord,
  usdAmount,
  wholeNumber,
} from "./config-values";

// Configuration is read from the environment once, validated, and frozen. A bad value stops the
// process with one line per problem naming the variable, so operators never guess.

const logLevels = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

export const configSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: wholeNumber(1, 65535, "must be a port number").default(3000),
    HOST: z
      .string()
      .refine((value) => isIP(value) !== 0 || value === "localhost", {
        error: "must be an IP address to listen on, such as 127.0.0.1 or 0.0.0.0",
      })
      .optional(),
    SERVICE_TRUSTED_PROXIES: wholeNumber(0, 10).default(0),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, { error: "must be a postgres:// or postgresql:// URL" })
      .optional(),
    DATABASE_POOL_SIZE: wholeNumber(1, 100).default(10),
    SERVICE_NAME: z.string().min(1).max(100).default("Crypto Checkout"),
    SERVICE_BASE_URL: httpUrl.optional(),
    SERVICE_PAY_BASE_URL: httpUrl.optional(),
    SERVICE_DATA_DIR: z.string().min(1).default(".data"),
    LOG_LEVEL: z.enum(logLevels, { error: `must be one of ${logLevels.join(", ")}` }).default("info"),
    SERVICE_SEED_DEMO: booleanFlag.optional(),
    SERVICE_RATE_LIMIT_API_PER_SECOND: wholeNumber(1, 1_000_000).default(100),
    SERVICE_RATE_LIMIT_PUBLIC_PER_MINUTE: wholeNumber(1, 1_000_000).default(600),
    SERVICE_RATE_LIMIT_EMAILS_PER_CLIENT_PER_HOUR: wholeNumber(1, 1_000_000).default(20),
    SERVICE_RATE_LIMIT_EMAILS_PER_ADDRESS_PER_HOUR: wholeNumber(1, 1_000_000).default(5),
    SERVICE_RATE_LIMIT_EMAILS_PER_ORGANIZATION_PER_HOUR: wholeNumber(1, 1_000_000).default(50),
    SERVICE_RATE_LIMIT_CHECKOUTS_PER_CLIENT_PER_HOUR: wholeNumber(1, 1_000_000).default(60),
    SERVICE_RATE_LIMIT_CHECKOUTS_PER_PAYLINK_PER_HOUR: wholeNumber(1, 1_000_000).default(1000),
    SERVICE_RATE_LIMIT_PAYMENT_STARTS_PER_SESSION_PER_HOUR: wholeNumber(1, 1_000_000).default(10),
    SERVICE_RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: wholeNumber(1, 1_000_000).default(30),
    SERVICE_RATE_LIMIT_AGENT_SETUPS_PER_HOUR: wholeNumber(1, 1_000_000).default(30),
    SERVICE_RATE_LIMIT_X402_PER_CLIENT_PER_MINUTE: wholeNumber(1, 1_000_000).default(60),
    SERVICE_RATE_LIMIT_STORE: z
      .enum(["memory", "postgres"], { error: "must be memory or postgres" })
      .default("memory"),
    SERVICE_SECRET_KEY: z
      .string()
      .refine((value) => Buffer.from(value, "base64").length === 32, {
        error: "must be 32 random bytes, base64-encoded (e.g. `openssl rand -base64 32`)",
      })
      .optional(),
    SERVICE_WEBHOOK_ALLOW_PRIVATE_URLS: booleanFlag.default(false),
    SERVICE_WEBHOOK_TIMEOUT_MS: wholeNumber(100, 60_000).default(10_000),
    SERVICE_NETWORKS: z
      .string()
      .transform((json, context) => {
        try {
          return parseNetworks(json);
        } catch (error) {
          const detail =
            error instanceof z.ZodError
              ? `${error.issues[0].path.join(".")}: ${error.issues[0].message}`
              : (error as Error).message;
          context.addIssue({ code: "custom", message: `must be a JSON list of networks (${detail})` });
          return z.NEVER;
        }
      })
      .optional(),
    SERVICE_HD_MNEMONIC: z
      .string()
      .refine((value) => validateMnemonic(value.trim(), wordlist), {
        error: "must be a valid BIP39 mnemonic",
      })
      .optional(),
    SERVICE_HD_XPUB: z
      .string()
      .trim()
      .superRefine((value, context) => {
        const problem = (() => {
          if (value.startsWith("xprv")) return "is a private key: give the account's xpub, never its xprv";
          try {
            const key = HDKey.fromExtendedKey(value);
            return key.depth === 3
              ? null
              : `must be an account-level key (depth 3, m/44'/60'/0'), not depth ${key.depth}`;
          } catch {
            return "must be a BIP32 extended public key (xpub…)";
          }
        })();
        if (problem) context.addIssue({ code: "custom", message: problem });
      })
      .optional(),
    SERVICE_RATES: jsonRecord(
      configuredRatesSchema,
      'must be a JSON object of USD prices with their time, e.g. {"EUR/USD": {"rate": "1.08", "updatedAt": "2026-01-31T16:00:00Z", "maxAgeSeconds": 86400}}',
    ).optional(),
    SERVICE_SWEEPER: z
      .enum(["in-process", "separate"], { error: "must be in-process or separate" })
      .optional(),
    // Seconds; the zero-setup start sets 0 (scripts/start.ts).
    SERVICE_SETTLEMENT_CHANGE_DELAY: wholeNumber(0, 30 * 86_400).optional(),
    SERVICE_SWEEP_DESTINATIONS: jsonRecord(
      z.record(
        z.string().regex(/^[a-z0-9-]+$/),
        z
          .union([z.string(), z.array(z.string()).min(1)])
          .transform((value) => (Array.isArray(value) ? value : [value]))
          // Checksummed (or all lower case): a typo in a pin must not pass.
          .refine((addresses) => addresses.every((address) => isAddress(address)))
          .transform((addresses) => addresses.map((address) => getAddress(address))),
      ),
      'must be a JSON object of EIP-55 addresses the sweeper may pay per network, e.g. {"base": ["0xAb…"]}',
    ).optional(),
    SERVICE_SWEEP_DUST: jsonRecord(
      z.record(z.string().regex(/^[a-z0-9-]+\/[A-Z0-9]+$/), z.string().regex(/^\d+(\.\d+)?$/)),
      'must be a JSON object of least amounts swept per network/token, e.g. {"base/USDC": "5"}',
    ).optional(),
    SERVICE_JOB_ENGINE: z
      .enum(["in-process", "inngest"], { error: "must be in-process or inngest" })
      .default("in-process"),
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, { error: "must be an smtp:// or smtps:// URL" })
      .optional(),
    SMTP_FROM: z.string().min(3).max(200).optional(),
    // At most 5 minutes: the outbox's 15-minute claim on an email must outlast its send
    // (lib/outbox/deliver-outbound-emails.ts).
    SMTP_TIMEOUT_MS: wholeNumber(100, 5 * 60_000).default(60_000),
    SERVICE_DEV_MAILBOX: booleanFlag.optional(),
    SERVICE_DEV_MAILBOX_KEY: z.string().min(32, { error: "must be at least 32 characters" }).optional(),
    SERVICE_METRICS_TOKEN: z.string().min(16, { error: "must be at least 16 characters" }).optional(),
    SERVICE_HEALTH_MAX_WATCHER_LAG_SECONDS: wholeNumber(5, 86_400).default(120),
    SERVICE_HEALTH_MAX_DELIVERY_AGE_SECONDS: wholeNumber(5, 86_400).default(300),
    SERVICE_HEALTH_CHAIN_UNREACHABLE_SECONDS: wholeNumber(5, 86_400).default(15),
    SERVICE_X402_FACILITATOR_URL: z
      .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
      // Only an http URL can fail this; any other is refused as not http(s) above.
      .refine((url) => !url.startsWith("http:") || !URL.canParse(url) || isLocalUrl(url), {
        error: "must be https (plain http only on loopback: localhost, 127.0.0.1 or ::1)",
      })
      .optional(),
    SERVICE_X402_FACILITATOR_TOKEN: z
      .string()
      .min(16, { error: "must be at least 16 characters" })
      .optional(),
    SERVICE_X402_FACILITATOR_PORT: wholeNumber(1, 65535, "must be a port number").optional(),
    SERVICE_X402_FACILITATOR_HOST: z
      .string()
      .refine((value) => isIP(value) !== 0 || value === "localhost", {
        error: "must be an IP address to listen on, such as 127.0.0.1 or 0.0.0.0",
      })
      .optional(),
    SERVICE_X402_GAS_MULTIPLE: wholeNumber(0, 1_000_000).default(10),
    SERVICE_X402_DAILY_GAS_BUDGET_USD: usdAmount.default("5"),
    SERVICE_X402_MAX_FEE_PAYER_LOSSES_PER_HOUR: wholeNumber(1, 1_000_000).default(20),
    SERVICE_X402_COUNT_DEVNET_GAS: booleanFlag.default(false),
    SERVICE_AUTO_REFUND_MIN_USD: usdAmount.default("1"),
    SERVICE_DEVNET: booleanFlag.optional(),
    SERVICE_DEVNET_PORT: wholeNumber(1, 65535, "must be a port number").default(8545),
    SERVICE_DEVNET_BLOCK_TIME_MS: wholeNumber(100, 10_000).optional(),
    SERVICE_SOLANA_DEVNET_PORT: wholeNumber(1, 65535, "must be a port number").default(8899),
    NEXTAUTH_URL: httpUrl.optional(),
  })
  .refine(
    (env) =>
      env.NODE_ENV !== "production" ||
      (env.SERVICE_NETWORKS ?? []).every((network) => !network.devnet || isLocalUrl(network.rpcUrl)),
    {
      path: ["SERVICE_NETWORKS"],
      // The test wallet pays from a well-known devnet account: only ever on this machine's chain.
      error: "a devnet network must use a local RPC URL (localhost, 127.0.0.1 or ::1) in production",
    },
  )
  .refine((env) => env.SERVICE_RATE_LIMIT_STORE !== "postgres" || env.DATABASE_URL !== undefined, {
    path: ["SERVICE_RATE_LIMIT_STORE"],
    error: "postgres needs DATABASE_URL (a PostgreSQL server shared by the app instances)",
  })
  .refine((env) => !(env.SERVICE_HD_MNEMONIC && env.SERVICE_HD_XPUB), {
    path: ["SERVICE_HD_XPUB"],
    error: "cannot be set together with SERVICE_HD_MNEMONIC: keep one (a web tier needs only the xpub)",
  })
  .refine((env) => !env.SERVICE_NETWORKS?.length || env.SERVICE_HD_MNEMONIC || env.SERVICE_HD_XPUB, {
    path: ["SERVICE_HD_XPUB"],
    error: "or SERVICE_HD_MNEMONIC is needed to derive deposit addresses on SERVICE_NETWORKS",
  })
  .superRefine((env, context) => {
    for (const network of env.SERVICE_NETWORKS ?? []) {
      const family = chainFamily(network);
      // Payments a family cannot settle yet would wait in the receiving wallet: local chains only.
      if (!family.sends && !network.devnet)
        context.addIssue({
          code: "custom",
          path: ["SERVICE_NETWORKS"],
          message: `${network.id}: this family's payments are not settled yet; only its local chain (devnet) may be used`,
        });
      try {
        family.completeNetwork(network, { hdMnemonic: env.SERVICE_HD_MNEMONIC, hdXpub: env.SERVICE_HD_XPUB });
      } catch (error) {
        context.addIssue({ code: "custom", path: ["SERVICE_NETWORKS"], message: (error as Error).message });
      }
    }
  })
  .refine((env) => !(env.SERVICE_HD_XPUB && env.SERVICE_NETWORKS?.some((network) => network.devnet)), {
    path: ["SERVICE_HD_XPUB"],
    error: "is for real networks: the devnet and its test wallet run with SERVICE_HD_MNEMONIC",
  })
  .refine(
    (env) =>
      env.SERVICE_X402_FACILITATOR_TOKEN !== undefined ||
      env.SERVICE_X402_FACILITATOR_PORT === undefined ||
      isLoopbackHost(env.SERVICE_X402_FACILITATOR_HOST ?? "127.0.0.1") ||
      // A host that is no address at all has its own message.
      isIP(env.SERVICE_X402_FACILITATOR_HOST ?? "") === 0,
    {
      path: ["SERVICE_X402_FACILITATOR_HOST"],
      // Settling spends the facilitator wallet's gas: off this machine only for token holders.
      error: "is not loopback: set SERVICE_X402_FACILITATOR_TOKEN too, or the facilitator settles for anyone",
    },
  )
  .transform((env) => {
    const baseUrl = (env.SERVICE_BASE_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, "");
    return {
      nodeEnv: env.NODE_ENV,
      port: env.PORT,
      // This machine only unless told: the zero-setup start shows sign-in links at /dev/mailbox.
      host: env.HOST ?? "127.0.0.1",
      trustedProxies: env.SERVICE_TRUSTED_PROXIES,
      databaseUrl: env.DATABASE_URL,
      databasePoolSize: env.DATABASE_POOL_SIZE,
      serviceName: env.SERVICE_NAME,
      baseUrl,
      // next-auth's public address (it reads NEXTAUTH_URL itself): ours unless set apart.
      authUrl: (env.NEXTAUTH_URL ?? baseUrl).replace(/\/+$/, ""),
      payBaseUrl: (env.SERVICE_PAY_BASE_URL ?? `${baseUrl}/pay`).replace(/\/+$/, ""),
      dataDir: env.SERVICE_DATA_DIR,
      logLevel: env.LOG_LEVEL,
      // The demo organization is for the zero-setup start; a configured database gets none unless asked.
      seedDemo: env.SERVICE_SEED_DEMO ?? env.DATABASE_URL === undefined,
      jobEngine: env.SERVICE_JOB_ENGINE,
      // The sweeper signs with the mnemonic: in this process (zero-setup start), or in its own
      // (`npm run sweeper`) while the web tier runs with the xpub alone.
      // With DATABASE_URL the web tier signs nothing unless told to: a compromised web instance
      // then holds no key that moves money.
      sweeper: {
        inProcess: (env.SERVICE_SWEEPER ?? (env.DATABASE_URL ? "separate" : "in-process")) === "in-process",
        dust: env.SERVICE_SWEEP_DUST ?? {},
        // The operator's pin: when set, the sweeper pays no address outside it.
        destinations: env.SERVICE_SWEEP_DESTINATIONS,
      },
      // How long a direct change of an existing settlement wallet waits, so every owner can cancel it.
      settlementChangeDelayMs:
        (env.SERVICE_SETTLEMENT_CHANGE_DELAY ?? (env.DATABASE_URL ? 86_400 : 0)) * 1000,
      networks: (env.SERVICE_NETWORKS ?? []).map((network) =>
        chainFamily(network).completeNetwork(network, {
          hdMnemonic: env.SERVICE_HD_MNEMONIC?.trim(),
          hdXpub: env.SERVICE_HD_XPUB,
        }),
      ),
      // The local chains `npm start` runs (scripts/start.ts), the Hardhat devnet and the Solana one
      // beside it: asked for, refused, or left to the start (undefined: with the embedded
      // database); never in place of configured networks.
      devnet: {
        requested: env.SERVICE_NETWORKS === undefined ? env.SERVICE_DEVNET : false,
        port: env.SERVICE_DEVNET_PORT,
        solanaPort: env.SERVICE_SOLANA_DEVNET_PORT,
        // Unset: a block on every transaction (and one a second), so nothing waits for a block.
        blockTimeMs: env.SERVICE_DEVNET_BLOCK_TIME_MS,
      },
      hdMnemonic: env.SERVICE_HD_MNEMONIC?.trim(),
      hdXpub: env.SERVICE_HD_XPUB,
      // Fallback prices only: quotes read price feeds first (lib/prices/find-usd-price.ts).
      configuredRates: env.SERVICE_RATES ?? {},
      secretKey:
        env.SERVICE_SECRET_KEY === undefined ? undefined : Buffer.from(env.SERVICE_SECRET_KEY, "base64"),
      webhooks: {
        allowPrivateUrls: env.SERVICE_WEBHOOK_ALLOW_PRIVATE_URLS,
        timeoutMs: env.SERVICE_WEBHOOK_TIMEOUT_MS,
      },
      email: {
        smtpUrl: env.SMTP_URL,
        smtpTimeoutMs: env.SMTP_TIMEOUT_MS,
        from: env.SMTP_FROM ?? `"${env.SERVICE_NAME}" <no-reply@${new URL(baseUrl).hostname}>`,
        // Sign-in links shown on a page are only safe where nobody else can reach the app: the
        // zero-setup start, or a test run that asks for it. Never when real email is configured.
        devMailbox: env.SMTP_URL === undefined && (env.SERVICE_DEV_MAILBOX ?? env.DATABASE_URL === undefined),
        // The mailbox opens only with this key (lib/auth/dev-mailbox-access.ts); `npm start` keeps one
        // in the data directory and prints the link.
        devMailboxKey: env.SERVICE_DEV_MAILBOX_KEY,
      },
      // x402 payments (lib/x402/): an external facilitator, else the one the signing role runs.
      x402: {
        facilitatorUrl: env.SERVICE_X402_FACILITATOR_URL?.replace(/\/+$/, ""),
        // The bearer token the web tier sends and the signing role's facilitator server demands.
        facilitatorToken: env.SERVICE_X402_FACILITATOR_TOKEN,
        // Set: `npm run sweeper` serves its facilitator over HTTP (loopback unless told).
        facilitatorServer:
          env.SERVICE_X402_FACILITATOR_PORT === undefined
            ? undefined
            : {
                port: env.SERVICE_X402_FACILITATOR_PORT,
                host: env.SERVICE_X402_FACILITATOR_HOST ?? "127.0.0.1",
              },
        // Gas (lib/x402/x402-gas.ts): a network is offered only when the price is at least this
        // many settlements' gas (0: always), and one organization's settlements may spend this
        // much gas per UTC day. A devnet's coin is test money, counted only when told.
        gasMultiple: env.SERVICE_X402_GAS_MULTIPLE,
        dailyGasBudgetUsd: env.SERVICE_X402_DAILY_GAS_BUDGET_USD,
        countDevnetGas: env.SERVICE_X402_COUNT_DEVNET_GAS,
        // This many fees lost on chain within an hour pause x402 on a network (lib/x402/x402-fee-payer-breaker.ts).
        maxFeePayerLossesPerHour: env.SERVICE_X402_MAX_FEE_PAYER_LOSSES_PER_HOUR,
      },
      // An overpayment worth less than this (USD, at the invoice's locked rate) is not refunded
      // automatically: its own transfer's gas would eat much of it (lib/refunds/refund-overpayment.ts).
      autoRefundMinUsd: env.SERVICE_AUTO_REFUND_MIN_USD,
      // Unset: /api/metrics answers 404 and /api/health shows no details.
      metricsToken: env.SERVICE_METRICS_TOKEN,
      health: {
        maxWatcherLagSeconds: env.SERVICE_HEALTH_MAX_WATCHER_LAG_SECONDS,
        maxDeliveryAgeSeconds: env.SERVICE_HEALTH_MAX_DELIVERY_AGE_SECONDS,
        chainUnreachableSeconds: env.SERVICE_HEALTH_CHAIN_UNREACHABLE_SECONDS,
      },
      rateLimits: {
        apiKeyPerSecond: env.SERVICE_RATE_LIMIT_API_PER_SECOND,
        publicPerMinute: env.SERVICE_RATE_LIMIT_PUBLIC_PER_MINUTE,
        emailsPerClientPerHour: env.SERVICE_RATE_LIMIT_EMAILS_PER_CLIENT_PER_HOUR,
        emailsPerAddressPerHour: env.SERVICE_RATE_LIMIT_EMAILS_PER_ADDRESS_PER_HOUR,
        emailsPerOrganizationPerHour: env.SERVICE_RATE_LIMIT_EMAILS_PER_ORGANIZATION_PER_HOUR,
        checkoutsPerClientPerHour: env.SERVICE_RATE_LIMIT_CHECKOUTS_PER_CLIENT_PER_HOUR,
        checkoutsPerPaylinkPerHour: env.SERVICE_RATE_LIMIT_CHECKOUTS_PER_PAYLINK_PER_HOUR,
        paymentStartsPerSessionPerHour: env.SERVICE_RATE_LIMIT_PAYMENT_STARTS_PER_SESSION_PER_HOUR,
        authFailuresPerMinute: env.SERVICE_RATE_LIMIT_AUTH_FAILURES_PER_MINUTE,
        agentSetupsPerHour: env.SERVICE_RATE_LIMIT_AGENT_SETUPS_PER_HOUR,
        x402PerClientPerMinute: env.SERVICE_RATE_LIMIT_X402_PER_CLIENT_PER_MINUTE,
        store: env.SERVICE_RATE_LIMIT_STORE,
      },
    };
  });

export type Config = z.output<typeof configSchema>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((line) => `  - ${line}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/** Validates an environment; throws ConfigError listing every bad variable. */
export function parseConfig(env: Record<string, string | undefined>): Config {
  // An empty variable means "not set", as in most deployment tools.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ""));
  const result = configSchema.safeParse(present);
  if (result.success) return Object.freeze(result.data);
  throw new ConfigError(
    result.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? "environment");
      const value = env[name];
      const shown =
        value === undefined || /URL|SECRET|KEY|TOKEN|MNEMONIC|XPUB|NETWORKS/.test(name)
          ? ""
          : ` (got "${value}")`;
      return `${name} ${issue.message}${shown}`;
    }),
  );
}

let current: Config | undefined;

/** The process configuration, read on first use. */
export function config(): Config {
  current ??= parseConfig(process.env);
  return current;
}

/** The hosted payment page of a checkout session (`{pay_url}/{id}`). */
export function checkoutUrl(id: string): string {
  return `${config().payBaseUrl}/${id}`;
}

// The x402 resources (docs/agents.md, "Agents that pay") are API routes, so they live on the base
// URL, not the pay URL. Here beside checkoutUrl rather than in lib/x402: the checkout and paylink
// serializers need them, and lib/x402 imports those folders (scripts/folder-cycles.test.ts).

/** Where an agent pays a paylink with x402; each payment opens and completes a fresh session. */
export function paylinkX402Url(paylinkId: string): string {
  return `${config().baseUrl}/api/x402/paylinks/${paylinkId}`;
}

/** Where an agent pays a checkout session with x402. */
export function checkoutSessionX402Url(sessionId: string): string {
  return `${config().baseUrl}/api/x402/checkout-sessions/${sessionId}`;
}

/**
 * The chain family a network's addresses and transfers belong to (lib/chains/chain-family.ts); a
 * network no longer configured is taken as its family's default, EVM.
 */
export function chainFamilyOf(networkId: string) {
  return chainFamily(config().networks.find((candidate) => candidate.id === networkId) ?? {});
}

/**
 * The configured networks the signing role sends on (sweeps, refunds, gas): those whose family
 * sends. Payments on the others are watched and confirmed, their funds kept in the receiving wallet.
 */
export function sendingNetworks() {
  return config().networks.filter((network) => chainFamily(network).sends);
}

/**
 * Whether the signing role pays refunds on a network: its family sends, or sends from the
 * service's own wallets (ChainFamily.serviceTransfers), which is all refunds need.
 */
export function paysRefunds(network: Pick<NetworkConfig, "family">): boolean {
  const family = chainFamily(network);
  return family.sends || family.serviceTransfers !== undefined;
}

/** The configured networks whose refunds the signing role pays (paysRefunds). */
export function refundingNetworks() {
  return config().networks.filter(paysRefunds);
}

/** A network's name for people ("Local devnet", "Base"): its configured name, or the id of one no longer configured. */
export function networkName(networkId: string): string {
  return config().networks.find((candidate) => candidate.id === networkId)?.name ?? networkId;
}

/**
 * The explorer page of a transaction or an address on a network (lib/chains/explorer-page.ts),
 * null where the network has no explorer (a local chain) or is no longer configured.
 */
export function explorerLink(networkId: string, kind: "address" | "tx", value: string): string | null {
  const explorerUrl = config().networks.find((candidate) => candidate.id === networkId)?.explorerUrl;
  return explorerUrl ? explorerPage(explorerUrl, kind, value) : null;
}

/**
 * A token's configuration on a network, for formatting its amounts; a token no longer configured
 * is taken as an 18-decimal coin, the most any token has.
 */
export function tokenOn(networkId: string, symbol: string): TokenConfig {
  const network = config().networks.find((candidate) => candidate.id === networkId);
  return network?.tokens.find((token) => token.symbol === symbol) ?? { symbol, decimals: maxTokenDecimals };
}

/**
 * The symbol of a configured network's native coin ("ETH", "POL", "SOL"), the unit of gas
 * balances (ChainFamily.nativeCoin: Solana lists no SOL to pay with).
 */
export function nativeCoinSymbol(networkId: string): string {
  const network = config().networks.find((candidate) => candidate.id === networkId);
  return (network && chainFamily(network).nativeCoin(network)?.symbol) ?? "coin";
}
