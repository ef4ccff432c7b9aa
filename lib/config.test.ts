import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "./config";

// The development mnemonic, its account (m/44'/60'/0') xpub and xprv, and its master xpub.
const devMnemonic = "test test test test test test test test test test test junk";
const accountXpub =
  "xpub6Ce9NcJvTk36xtLSrJLZqE7wtgA5deCeYs7rSQtreh4cj6ByPtrg9sD7V2FNFLPnf8heNP3FGkeV9qwfzvZNSd54JoNXVsXFYSYwHsnJxqP";
const accountXprv =
  "xprv9yeny6n2dNUokQFykGoZU6BDLeKbEBUoBeCFe2VF6MXdrHrprMYRc4tddncDRxrJCy7GtPDk68zRcgWtGFveqdCV5NyhZwVgMoZVbTm78vx";
const masterXpub =
  "xpub661MyMwAqRbcGCHqYL6cunEAC4sjobr4oEsADYNVSpvM1oCFfV98EVtMuHVmKomD5EWqhYwUPCkQdrti7hUGbmxaoTGLSkzhtBmR5tk9Jtu";
const baseNetworks = '[{"id": "base", "rpcUrl": "https://base.example/rpc"}]';
/** SERVICE_NETWORKS with one network flagged as the devnet. */
const devnetOn = (network: { chainId: number; rpcUrl: string }) =>
  JSON.stringify([
    {
      id: "devnet",
      name: "Devnet",
      confirmations: 1,
      tokens: [{ symbol: "ETH", decimals: 18 }],
      devnet: true,
      ...network,
    },
  ]);

/** The zero-setup Solana network (lib/chains/solana/local-solana-network.ts), as SERVICE_NETWORKS gives it. */
const localSolana = {
  id: "solana-local",
  name: "Local Solana",
  family: "solana",
  genesisHash: "EtWTRABZaYq6iMfeYKouRu166VU2xqa1wcaWoxPkrZBG",
  commitment: "confirmed",
  rpcUrl: "http://127.0.0.1:8899",
  confirmations: 1,
  tokens: [{ symbol: "USDC", decimals: 6, address: "8mcrCSrqAAjCsuwEBekPb24kxqVzpLtpzws82EzakSdb" }],
  devnet: true,
};

describe("parseConfig", () => {
  // m/44'/501'/0'/1'/0' and m/44'/501'/0'/3'/0' of the test mnemonic (lib/chains/solana/solana-keys.ts):
  // the invoices' recipient and the 402's extra.feePayer.
  it.each([
    ["receiver", "receiving"],
    ["feePayer", "fee payer"],
  ] as const)("gives a Solana network the %s the mnemonic derives, and refuses another", (field, name) => {
    const derived = parseConfig({
      SERVICE_HD_MNEMONIC: devMnemonic,
      SERVICE_NETWORKS: JSON.stringify([localSolana]),
    });
    const wallet = derived.networks[0][field] as string;
    expect(wallet).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    expect(derived.networks[0].receiver).not.toBe(derived.networks[0].feePayer);
    const same = parseConfig({
      SERVICE_HD_MNEMONIC: devMnemonic,
      SERVICE_NETWORKS: JSON.stringify([{ ...localSolana, [field]: wallet }]),
    });
    expect(same.networks[0][field]).toBe(wallet);
    expect(() =>
      parseConfig({
        SERVICE_HD_MNEMONIC: devMnemonic,
        SERVICE_NETWORKS: JSON.stringify([
          { ...localSolana, [field]: "AqynRZwvVqUPRwRJXvm6odUb3t93fDjnWe3p6BeuUFxD" },
        ]),
      }),
    ).toThrow(
      `network solana-local's "${field}" is not the ${name} wallet of SERVICE_HD_MNEMONIC (${wallet})`,
    );
  });

  it("fills defaults for an empty environment", () => {
    const config = parseConfig({});
    expect(config).toMatchObject({
      port: 3000,
      baseUrl: "http://localhost:3000",
      payBaseUrl: "http://localhost:3000/pay",
      serviceName: "Crypto Checkout",
      databaseUrl: undefined,
      seedDemo: true,
      logLevel: "info",
      jobEngine: "in-process",
      rateLimits: expect.objectContaining({
        apiKeyPerSecond: 100,
        publicPerMinute: 600,
        authFailuresPerMinute: 30,
        agentSetupsPerHour: 30,
        store: "memory",
      }),
      secretKey: undefined,
      webhooks: { allowPrivateUrls: false, timeoutMs: 10_000 },
      networks: [],
      hdMnemonic: undefined,
      hdXpub: undefined,
      email: { smtpUrl: undefined, smtpTimeoutMs: 60_000, devMailbox: true },
    });
  });

  it("shows sign-in emails on the development mailbox only without SMTP and outside production", () => {
    expect(parseConfig({ DATABASE_URL: "postgresql://db/x" }).email.devMailbox).toBe(false);
    expect(
      parseConfig({ DATABASE_URL: "postgresql://db/x", SERVICE_DEV_MAILBOX: "true" }).email.devMailbox,
    ).toBe(true);
    expect(parseConfig({ SMTP_URL: "smtp://mail:25", SERVICE_DEV_MAILBOX: "true" }).email.devMailbox).toBe(
      false,
    );
    expect(parseConfig({}).email.from).toBe('"Crypto Checkout" <no-reply@localhost>');
  });

  it("derives URLs from the base URL and drops trailing slashes", () => {
    const config = parseConfig({ SERVICE_BASE_URL: "https://pay.example.com/" });
    expect(config.baseUrl).toBe("https://pay.example.com");
    expect(config.payBaseUrl).toBe("https://pay.example.com/pay");
  });

  it("reads configured USD prices with their time and maximum age (one day unless given)", () => {
    const { configuredRates } = parseConfig({
      SERVICE_RATES:
        '{"EUR/USD": {"rate": "1.08", "updatedAt": "2026-01-31T16:00:00Z"}, "GBP/USD": {"rate": "1.27", "updatedAt": "2026-01-31T17:00:00+01:00", "maxAgeSeconds": 600}}',
    });
    expect(configuredRates).toEqual({
      "EUR/USD": { rate: "1.08", updatedAt: new Date("2026-01-31T16:00:00Z"), maxAgeSeconds: 86_400 },
      "GBP/USD": { rate: "1.27", updatedAt: new Date("2026-01-31T16:00:00Z"), maxAgeSeconds: 600 },
    });
    expect(parseConfig({}).configuredRates).toEqual({});
  });

  it("does not seed a demo organization into a configured database unless asked", () => {
    expect(parseConfig({ DATABASE_URL: "postgresql://db/x" }).seedDemo).toBe(false);
    expect(parseConfig({ DATABASE_URL: "postgresql://db/x", SERVICE_SEED_DEMO: "true" }).seedDemo).toBe(true);
  });

  it.each<[string, Record<string, string>, { inProcess: boolean; delayMs: number }]>([
    ["the zero-setup start (no DATABASE_URL)", {}, { inProcess: true, delayMs: 0 }],
    ["DATABASE_URL", { DATABASE_URL: "postgresql://db/x" }, { inProcess: false, delayMs: 86_400_000 }],
    [
      "DATABASE_URL with explicit settings",
      {
        DATABASE_URL: "postgresql://db/x",
        SERVICE_SWEEPER: "in-process",
        SERVICE_SETTLEMENT_CHANGE_DELAY: "3600",
      },
      { inProcess: true, delayMs: 3_600_000 },
    ],
  ])("signs sweeps in the web tier and delays wallet changes as set: %s", (_label, env, expected) => {
    const parsed = parseConfig(env);
    expect({ inProcess: parsed.sweeper.inProcess, delayMs: parsed.settlementChangeDelayMs }).toEqual(
      expected,
    );
  });

  it("reads the operator's sweep destinations, checksummed, one or many per network", () => {
    const pin = parseConfig({
      SERVICE_SWEEP_DESTINATIONS: JSON.stringify({
        base: "0x52908400098527886e0f7030069857d2e4169ee7",
        devnet: ["0x52908400098527886E0F7030069857D2E4169EE7", "0xde709f2102306220921060314715629080e2fb77"],
      }),
    }).sweeper.destinations;
    expect(pin).toEqual({
      base: ["0x52908400098527886E0F7030069857D2E4169EE7"],
      devnet: ["0x52908400098527886E0F7030069857D2E4169EE7", "0xde709f2102306220921060314715629080e2fb77"],
    });
    expect(parseConfig({}).sweeper.destinations).toBeUndefined();
  });

  it.each([
    [{ PORT: "abc" }, 'PORT must be a port number (got "abc")'],
    ...[
      '{"base": "0x52908400098527886E0F7030069857D2E4169Ee7"}',
      '{"base": []}',
      '["0x52908400098527886E0F7030069857D2E4169EE7"]',
    ].map((value) => [
      { SERVICE_SWEEP_DESTINATIONS: value },
      `SERVICE_SWEEP_DESTINATIONS must be a JSON object of EIP-55 addresses the sweeper may pay per network, e.g. {"base": ["0xAb…"]} (got "${value}")`,
    ]),
    [
      { SERVICE_SETTLEMENT_CHANGE_DELAY: "1h" },
      'SERVICE_SETTLEMENT_CHANGE_DELAY must be a whole number from 0 to 2592000 (got "1h")',
    ],
    // A token is never echoed, not even a short one.
    [{ SERVICE_METRICS_TOKEN: "short" }, "SERVICE_METRICS_TOKEN must be at least 16 characters"],
    [
      { SERVICE_HEALTH_MAX_WATCHER_LAG_SECONDS: "1" },
      'SERVICE_HEALTH_MAX_WATCHER_LAG_SECONDS must be a whole number from 5 to 86400 (got "1")',
    ],
    [{ PORT: "70000" }, 'PORT must be a port number (got "70000")'],
    [{ DATABASE_URL: "mysql://x" }, "DATABASE_URL must be a postgres:// or postgresql:// URL"],
    [{ SERVICE_BASE_URL: "ftp://x" }, "SERVICE_BASE_URL must be an http(s) URL"],
    [
      { LOG_LEVEL: "loud" },
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud")',
    ],
    [
      { SERVICE_SEED_DEMO: "maybe" },
      'SERVICE_SEED_DEMO must be one of true, false, 1, 0, yes, no (got "maybe")',
    ],
    [{ SERVICE_HD_MNEMONIC: "not a mnemonic" }, "SERVICE_HD_MNEMONIC must be a valid BIP39 mnemonic"],
    [{ SMTP_URL: "http://mail" }, "SMTP_URL must be an smtp:// or smtps:// URL"],
    ...[
      "[]",
      '{"EUR/USD": "1.08"}',
      '{"EUR/USD": {"rate": "1.08"}}',
      '{"EUR/USD": {"rate": "0", "updatedAt": "2026-01-31T16:00:00Z"}}',
    ].map((value) => [
      { SERVICE_RATES: value },
      `SERVICE_RATES must be a JSON object of USD prices with their time, e.g. {"EUR/USD": {"rate": "1.08", "updatedAt": "2026-01-31T16:00:00Z", "maxAgeSeconds": 86400}} (got "${value}")`,
    ]),
    [
      { SERVICE_NETWORKS: "{}" },
      "SERVICE_NETWORKS must be a JSON list of networks (: Invalid input: expected array, received object)",
    ],
    [
      { SERVICE_NETWORKS: '[{"id": "base"}]' },
      "SERVICE_NETWORKS must be a JSON list of networks (rpcUrl: Invalid input: expected string, received undefined)",
    ],
    [
      { SERVICE_SECRET_KEY: "c2hvcnQ=" },
      "SERVICE_SECRET_KEY must be 32 random bytes, base64-encoded (e.g. `openssl rand -base64 32`)",
    ],
    [{ SERVICE_JOB_ENGINE: "cron" }, 'SERVICE_JOB_ENGINE must be in-process or inngest (got "cron")'],
    [
      { SERVICE_RATE_LIMIT_STORE: "redis" },
      'SERVICE_RATE_LIMIT_STORE must be memory or postgres (got "redis")',
    ],
    [
      { SERVICE_RATE_LIMIT_API_PER_SECOND: "0" },
      'SERVICE_RATE_LIMIT_API_PER_SECOND must be a whole number from 1 to 1000000 (got "0")',
    ],
    [{ DATABASE_POOL_SIZE: "0" }, 'DATABASE_POOL_SIZE must be a whole number from 1 to 100 (got "0")'],
    [
      { SMTP_TIMEOUT_MS: "900000" },
      'SMTP_TIMEOUT_MS must be a whole number from 100 to 300000 (got "900000")',
    ],
    [
      { SERVICE_X402_DAILY_GAS_BUDGET_USD: "five" },
      'SERVICE_X402_DAILY_GAS_BUDGET_USD must be a USD amount such as 5 or 2.50 (got "five")',
    ],
    [{ SERVICE_HD_XPUB: "xpub-nonsense" }, "SERVICE_HD_XPUB must be a BIP32 extended public key (xpub…)"],
    [
      { SERVICE_HD_XPUB: accountXprv },
      "SERVICE_HD_XPUB is a private key: give the account's xpub, never its xprv",
    ],
    [
      { SERVICE_HD_XPUB: masterXpub },
      "SERVICE_HD_XPUB must be an account-level key (depth 3, m/44'/60'/0'), not depth 0",
    ],
    [
      { SERVICE_HD_XPUB: accountXpub, SERVICE_HD_MNEMONIC: devMnemonic },
      "SERVICE_HD_XPUB cannot be set together with SERVICE_HD_MNEMONIC: keep one (a web tier needs only the xpub)",
    ],
    [
      { SERVICE_NETWORKS: baseNetworks },
      "SERVICE_HD_XPUB or SERVICE_HD_MNEMONIC is needed to derive deposit addresses on SERVICE_NETWORKS",
    ],
    [
      {
        SERVICE_NETWORKS: devnetOn({ chainId: 31337, rpcUrl: "http://127.0.0.1:8545" }),
        SERVICE_HD_XPUB: accountXpub,
      },
      "SERVICE_HD_XPUB is for real networks: the devnet and its test wallet run with SERVICE_HD_MNEMONIC",
    ],
    [
      {
        SERVICE_HD_MNEMONIC: devMnemonic,
        SERVICE_NETWORKS: devnetOn({ chainId: 1, rpcUrl: "http://127.0.0.1:8545" }),
      },
      "SERVICE_NETWORKS must be a JSON list of networks (devnet: only a local Hardhat chain (chain id 31337) can be a devnet)",
    ],
    [
      {
        SERVICE_HD_MNEMONIC: devMnemonic,
        SERVICE_NETWORKS: devnetOn({ chainId: 8453, rpcUrl: "https://base.example" }),
      },
      "SERVICE_NETWORKS must be a JSON list of networks (devnet: only a local Hardhat chain (chain id 31337) can be a devnet)",
    ],
    [
      {
        SERVICE_HD_MNEMONIC: devMnemonic,
        SERVICE_NETWORKS: JSON.stringify([{ ...localSolana, rpcUrl: "https://api.mainnet-beta.solana.com" }]),
      },
      "SERVICE_NETWORKS must be a JSON list of networks (devnet: only the local Solana chain (an RPC URL on this machine) can be a devnet)",
    ],
    [
      {
        SERVICE_HD_MNEMONIC: devMnemonic,
        SERVICE_NETWORKS: JSON.stringify([{ ...localSolana, devnet: false }]),
      },
      "SERVICE_NETWORKS must be a JSON list of networks (commitment: must be finalized on a real Solana network)",
    ],
    ...["http://10.0.0.5:8545", "https://rpc.example.com", "http://hardhat:8545"].map((rpcUrl) => [
      {
        NODE_ENV: "production",
        SERVICE_HD_MNEMONIC: devMnemonic,
        SERVICE_NETWORKS: devnetOn({ chainId: 31337, rpcUrl }),
      },
      "SERVICE_NETWORKS a devnet network must use a local RPC URL (localhost, 127.0.0.1 or ::1) in production",
    ]),
    [
      { SERVICE_TRUSTED_PROXIES: "-1" },
      'SERVICE_TRUSTED_PROXIES must be a whole number from 0 to 10 (got "-1")',
    ],
    [{ SERVICE_DEVNET: "on" }, 'SERVICE_DEVNET must be one of true, false, 1, 0, yes, no (got "on")'],
    [{ SERVICE_DEVNET_PORT: "eighty" }, 'SERVICE_DEVNET_PORT must be a port number (got "eighty")'],
    [{ SERVICE_DEVNET_PORT: "70000" }, 'SERVICE_DEVNET_PORT must be a port number (got "70000")'],
    [
      { SERVICE_SOLANA_DEVNET_PORT: "eighty" },
      'SERVICE_SOLANA_DEVNET_PORT must be a port number (got "eighty")',
    ],
    [{ SERVICE_SOLANA_DEVNET_PORT: "0" }, 'SERVICE_SOLANA_DEVNET_PORT must be a port number (got "0")'],
    ...["0", "99", "10001", "half a second"].map((value) => [
      { SERVICE_DEVNET_BLOCK_TIME_MS: value },
      `SERVICE_DEVNET_BLOCK_TIME_MS must be a whole number from 100 to 10000 (got "${value}")`,
    ]),
    // A URL is never echoed.
    [{ NEXTAUTH_URL: "login.example.com" }, "NEXTAUTH_URL must be an http(s) URL"],
    [{ NEXTAUTH_URL: "ftp://login.example.com" }, "NEXTAUTH_URL must be an http(s) URL"],
    [
      { HOST: "example.com" },
      'HOST must be an IP address to listen on, such as 127.0.0.1 or 0.0.0.0 (got "example.com")',
    ],
    ...["ftp://facilitator.example", "not a url"].map((url) => [
      { SERVICE_X402_FACILITATOR_URL: url },
      "SERVICE_X402_FACILITATOR_URL must be an http(s) URL",
    ]),
    ...["http://facilitator.example", "http://10.0.0.5:4022"].map((url) => [
      { SERVICE_X402_FACILITATOR_URL: url },
      "SERVICE_X402_FACILITATOR_URL must be https (plain http only on loopback: localhost, 127.0.0.1 or ::1)",
    ]),
    [
      { SERVICE_X402_FACILITATOR_TOKEN: "short" },
      "SERVICE_X402_FACILITATOR_TOKEN must be at least 16 characters",
    ],
    [
      { SERVICE_X402_FACILITATOR_PORT: "70000" },
      'SERVICE_X402_FACILITATOR_PORT must be a port number (got "70000")',
    ],
    [
      { SERVICE_X402_FACILITATOR_PORT: "4022", SERVICE_X402_FACILITATOR_HOST: "facilitator.local" },
      'SERVICE_X402_FACILITATOR_HOST must be an IP address to listen on, such as 127.0.0.1 or 0.0.0.0 (got "facilitator.local")',
    ],
    [
      { SERVICE_X402_FACILITATOR_PORT: "4022", SERVICE_X402_FACILITATOR_HOST: "0.0.0.0" },
      'SERVICE_X402_FACILITATOR_HOST is not loopback: set SERVICE_X402_FACILITATOR_TOKEN too, or the facilitator settles for anyone (got "0.0.0.0")',
    ],
  ] as [Record<string, string>, string][])("rejects %j with a readable message", (env, message) => {
    expect(() => parseConfig(env)).toThrow(ConfigError);
    try {
      parseConfig(env);
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([message]);
      expect((error as Error).message).toContain(message);
    }
  });

  it("lists every problem at once and never echoes a database URL", () => {
    try {
      parseConfig({ PORT: "x", DATABASE_URL: "mysql://user:hunter2@db" });
      expect.unreachable();
    } catch (error) {
      const problems = (error as ConfigError).problems;
      expect(problems).toHaveLength(2);
      expect((error as Error).message).not.toContain("hunter2");
    }
  });

  it.each([
    ["the account xpub", { SERVICE_HD_XPUB: accountXpub }, { hdXpub: accountXpub, hdMnemonic: undefined }],
    ["the mnemonic", { SERVICE_HD_MNEMONIC: devMnemonic }, { hdXpub: undefined, hdMnemonic: devMnemonic }],
  ])("takes payments on a network with %s", (_label, env, expected) => {
    expect(parseConfig({ SERVICE_NETWORKS: baseNetworks, ...env })).toMatchObject(expected);
  });

  it("never echoes a private key given as SERVICE_HD_XPUB", () => {
    expect(() => parseConfig({ SERVICE_HD_XPUB: accountXprv })).toThrow(ConfigError);
    try {
      parseConfig({ SERVICE_HD_XPUB: accountXprv });
    } catch (error) {
      expect((error as Error).message).not.toContain(accountXprv.slice(4, 20));
    }
  });

  it.each([
    ["development", "http://10.0.0.5:8545"],
    ["production", "http://127.0.0.1:8545"],
    ["production", "http://localhost:8545"],
    ["production", "http://[::1]:8545"],
  ])("lets the test wallet pay on a devnet in %s at %s", (nodeEnv, rpcUrl) => {
    const networks = parseConfig({
      NODE_ENV: nodeEnv,
      SERVICE_HD_MNEMONIC: devMnemonic,
      SERVICE_NETWORKS: devnetOn({ chainId: 31337, rpcUrl }),
    }).networks;
    expect(networks[0]).toMatchObject({ devnet: true, chainId: 31337 });
  });

  it("listens on loopback unless HOST says otherwise", () => {
    expect(parseConfig({}).host).toBe("127.0.0.1");
    expect(parseConfig({ DATABASE_URL: "postgresql://db/x" }).host).toBe("127.0.0.1");
    expect(parseConfig({ HOST: "0.0.0.0" }).host).toBe("0.0.0.0");
    expect(parseConfig({ DATABASE_URL: "postgresql://db/x", HOST: "::1" }).host).toBe("::1");
    expect(parseConfig({}).trustedProxies).toBe(0);
  });

  it.each<[string, Record<string, string>, object]>([
    [
      "nothing set",
      {},
      { facilitatorUrl: undefined, facilitatorToken: undefined, facilitatorServer: undefined },
    ],
    [
      "an external facilitator with its token",
      {
        SERVICE_X402_FACILITATOR_URL: "https://facilitator.example/x402/",
        SERVICE_X402_FACILITATOR_TOKEN: "a-token-of-16-chars",
      },
      {
        facilitatorUrl: "https://facilitator.example/x402",
        facilitatorToken: "a-token-of-16-chars",
        facilitatorServer: undefined,
      },
    ],
    [
      "the signing role's facilitator on loopback (http), no token",
      { SERVICE_X402_FACILITATOR_URL: "http://127.0.0.1:4022", SERVICE_X402_FACILITATOR_PORT: "4022" },
      {
        facilitatorUrl: "http://127.0.0.1:4022",
        facilitatorToken: undefined,
        facilitatorServer: { port: 4022, host: "127.0.0.1" },
      },
    ],
    [
      "the signing role's facilitator on every interface, with a token",
      {
        SERVICE_X402_FACILITATOR_PORT: "4022",
        SERVICE_X402_FACILITATOR_HOST: "0.0.0.0",
        SERVICE_X402_FACILITATOR_TOKEN: "a-token-of-16-chars",
      },
      {
        facilitatorUrl: undefined,
        facilitatorToken: "a-token-of-16-chars",
        facilitatorServer: { port: 4022, host: "0.0.0.0" },
      },
    ],
  ])("reads the x402 facilitator settings: %s", (_label, env, expected) => {
    expect(parseConfig(env).x402).toEqual({
      ...expected,
      gasMultiple: 10,
      dailyGasBudgetUsd: "5",
      countDevnetGas: false,
      maxFeePayerLossesPerHour: 20,
    });
  });

  it.each<[string, Record<string, string>, object]>([
    [
      "defaults",
      {},
      { gasMultiple: 10, dailyGasBudgetUsd: "5", countDevnetGas: false, maxFeePayerLossesPerHour: 20 },
    ],
    [
      "set",
      {
        SERVICE_X402_GAS_MULTIPLE: "0",
        SERVICE_X402_DAILY_GAS_BUDGET_USD: "2.50",
        SERVICE_X402_COUNT_DEVNET_GAS: "true",
        SERVICE_X402_MAX_FEE_PAYER_LOSSES_PER_HOUR: "1",
      },
      { gasMultiple: 0, dailyGasBudgetUsd: "2.50", countDevnetGas: true, maxFeePayerLossesPerHour: 1 },
    ],
  ])("reads the x402 gas settings: %s", (_label, env, expected) => {
    expect(parseConfig(env).x402).toMatchObject(expected);
  });

  it("treats empty variables as unset", () => {
    expect(parseConfig({ PORT: "", DATABASE_URL: "" }).port).toBe(3000);
  });
});

describe("the local devnet and next-auth's address", () => {
  it.each([
    [{}, { requested: undefined, port: 8545, solanaPort: 8899 }],
    [{ SERVICE_DEVNET: "true" }, { requested: true, port: 8545, solanaPort: 8899 }],
    [
      { SERVICE_DEVNET: "true", SERVICE_DEVNET_BLOCK_TIME_MS: "500" },
      { requested: true, port: 8545, solanaPort: 8899, blockTimeMs: 500 },
    ],
    [
      { SERVICE_DEVNET: "1", SERVICE_DEVNET_PORT: "9201", SERVICE_SOLANA_DEVNET_PORT: "9202" },
      { requested: true, port: 9201, solanaPort: 9202 },
    ],
    [{ SERVICE_DEVNET: "no" }, { requested: false, port: 8545, solanaPort: 8899 }],
    // Configured networks replace the devnet, whatever SERVICE_DEVNET says.
    [
      { SERVICE_DEVNET: "true", SERVICE_NETWORKS: baseNetworks, SERVICE_HD_MNEMONIC: devMnemonic },
      { requested: false, port: 8545, solanaPort: 8899 },
    ],
  ] as [
    Record<string, string>,
    { requested?: boolean; port: number; solanaPort: number; blockTimeMs?: number },
  ][])("reads %j as devnet %j", (env, devnet) => {
    expect(parseConfig(env).devnet).toEqual(devnet);
  });

  it.each([
    [{}, "http://localhost:3000"],
    [{ SERVICE_BASE_URL: "https://pay.example.com/" }, "https://pay.example.com"],
    [
      { SERVICE_BASE_URL: "https://pay.example.com", NEXTAUTH_URL: "https://login.example.com" },
      "https://login.example.com",
    ],
  ] as [Record<string, string>, string][])("gives next-auth %j as %s", (env, authUrl) => {
    expect(parseConfig(env).authUrl).toBe(authUrl);
  });
});
