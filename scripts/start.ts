// `npm start`: the whole product on one machine. Builds if needed, brings up the database (the
// configured one, or embedded PostgreSQL under SERVICE_DATA_DIR), migrates it, creates a demo
// merchant on first start, starts the Next.js server and prints how to make a first request.
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { createSolanaRpc } from "@solana/kit";
import { devnetBuyer, devnetBuyerKey, devnetTestWallet } from "../lib/chains/devnet-account";
import { findToken } from "../lib/chains/networks";
import { localSolanaBuyer, walletSecret } from "../lib/chains/solana/local-solana-accounts";
import { localSolanaNetwork, localSolanaNetworkId } from "../lib/chains/solana/local-solana-network";
import type { SolanaRpc } from "../lib/chains/solana/read-solana-transfers";
import { solanaServiceKey } from "../lib/chains/solana/solana-keys";
import {
  type LocalSolana,
  localSolanaBuyerFunds,
  startLocalSolana,
} from "../lib/chains/solana/start-local-solana";
import { topUpLocalWallet } from "../lib/chains/solana/top-up-local-wallet";
import { closeDb, createDb, type Db } from "../lib/db/client";
import type { EmbeddedPostgres } from "../lib/db/embedded-postgres";
import { applyMigrations } from "../lib/db/schema-engine";
import { Money, toBaseUnits } from "../lib/money/decimal";
import { type DemoCredentials, ensureDemoOrganization } from "../lib/organizations/ensure-demo-organization";
import { failOpenSweeps } from "../lib/sweeps/forget-devnet-chain";
import { receivingWalletLedger } from "../lib/sweeps/reconcile-receiving-wallets";
import { buildIfNeeded } from "./build-if-needed";
import { configOrExit } from "./config-or-exit";
import { startRecordedEmbeddedPostgres } from "./database";
import { type DevnetSetup, devnetBuyerUsdc, setUpDevnet } from "./devnet-setup";
import { recordRunningApp } from "./running-app";

const root = path.resolve(import.meta.dirname, "..");
const dev = process.argv.includes("--dev");

const settings = configOrExit();

let embedded: EmbeddedPostgres | undefined;
let chain: DevnetSetup | undefined;
let solana: LocalSolana | undefined;
let server: ChildProcess | undefined;
let forgetRunningApp: (() => Promise<void>) | undefined;

let shuttingDown: Promise<never> | undefined;

/**
 * Stops the server, waiting for its own graceful shutdown (SIGKILL after 60 s). Settles with its
 * exit code (1 if a signal ended it), or undefined when no server was started.
 */
async function stopServer(signal: NodeJS.Signals): Promise<number | undefined> {
  const running = server;
  if (!running) return undefined;
  if (running.exitCode === null && running.signalCode === null) {
    const exited = once(running, "exit");
    running.kill(signal);
    const deadline = setTimeout(() => running.kill("SIGKILL"), 60_000);
    await exited;
    clearTimeout(deadline);
  }
  return running.exitCode ?? 1;
}

/**
 * Every child goes down with this process, the server first (it drains into the database). Exits
 * with `code`, else the server's: a drain that failed must not pass for a clean stop.
 */
function shutdown({ code, signal = "SIGTERM" }: { code?: number; signal?: NodeJS.Signals }) {
  shuttingDown ??= (async () => {
    await forgetRunningApp?.().catch(() => {});
    const serverCode = await stopServer(signal);
    await chain?.devnet.stop().catch(() => {});
    await solana?.stop().catch(() => {});
    await embedded?.stop().catch(() => {});
    process.exit(code ?? serverCode ?? 0);
  })();
  return shuttingDown;
}
process.on("SIGINT", () => void shutdown({ signal: "SIGINT" }));
process.on("SIGTERM", () => void shutdown({ signal: "SIGTERM" }));

/**
 * The key that seals webhook signing secrets. A single embedded instance keeps a generated one in
 * its data directory; instances sharing a database must share a key, so there it must be given.
 */
async function localSecretKey(): Promise<string> {
  if (!embedded) {
    throw new Error(
      "SERVICE_SECRET_KEY is required with DATABASE_URL (32 random bytes, base64: `openssl rand -base64 32`)",
    );
  }
  return keptKey("secret-key", "base64");
}

/**
 * A key kept in the data directory, readable by this user only: made (32 random bytes) when the
 * file is missing, so deleting it makes a new one at the next start.
 */
async function keptKey(name: string, encoding: "base64" | "base64url"): Promise<string> {
  const file = path.join(path.resolve(settings.dataDir), name);
  const saved = (await readFile(file, "utf8").catch(() => null))?.trim();
  if (saved) {
    await chmod(file, 0o600);
    return saved;
  }
  const key = randomBytes(32).toString(encoding);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, key, { mode: 0o600 });
  return key;
}

/** The development mailbox's key (lib/auth/dev-mailbox-access.ts): given, or kept in the data directory. */
async function devMailboxKey(): Promise<string | undefined> {
  if (!settings.email.devMailbox) return undefined;
  return process.env.SERVICE_DEV_MAILBOX_KEY || keptKey("dev-mailbox-key", "base64url");
}

/** The devnet comes with the zero-setup start, or on request; never in place of configured networks. */
function wantsDevnet(): boolean {
  return settings.devnet.requested ?? embedded !== undefined;
}

async function startChain(database: Db): Promise<DevnetSetup | undefined> {
  try {
    return await setUpDevnet({
      port: settings.devnet.port,
      dataDir: path.resolve(settings.dataDir),
      database,
      blockTimeMs: settings.devnet.blockTimeMs,
    });
  } catch (error) {
    console.warn(
      `The local devnet did not start (${(error as Error).message}); payments are off until it does.`,
    );
    return undefined;
  }
}

/**
 * The local Solana chain beside the devnet, a payment network (`solana-local`) whose receiving
 * wallet (the service mnemonic's) has its test USDC account from the start, and whose fee payer
 * holds the SOL that sweeps' fees take. A fresh chain starts
 * at slot 0: the watcher forgets how far the last one was scanned.
 */
async function startSolanaChain(database: Db, mnemonic: string): Promise<LocalSolana | undefined> {
  try {
    const receiver = solanaServiceKey(mnemonic, "receiving").address;
    const started = await startLocalSolana({
      port: settings.devnet.solanaPort,
      receivers: [receiver],
      feePayers: [solanaServiceKey(mnemonic, "feePayer").address],
    });
    await database.chainCursor.deleteMany({ where: { network: localSolanaNetworkId } });
    await failOpenSweeps(
      database,
      localSolanaNetworkId,
      "The local Solana chain was restarted; its funds are gone.",
    );
    await restoreReceivingWallet(database, started, receiver);
    return started;
  } catch (error) {
    console.warn(`The local Solana chain did not start (${(error as Error).message}).`);
    return undefined;
  }
}

/**
 * A fresh local Solana chain holds nothing, while the database keeps what the last one's receiving
 * wallet held by the ledger (payments less confirmed sweeps, the sweeps just failed counting as not
 * moved): the test USDC is minted back to it, so ledger and chain agree again and unswept funds can
 * still be swept, as the devnet's deposit addresses are restored (lib/sweeps/restore-devnet-deposits.ts).
 */
async function restoreReceivingWallet(database: Db, started: LocalSolana, receiver: string) {
  const network = localSolanaNetwork({ rpcUrl: started.url });
  const rpc = createSolanaRpc(started.url) as SolanaRpc;
  for (const row of await receivingWalletLedger(database, network.id)) {
    const token = findToken(network, row.token);
    const held = new Money(row.held);
    if (!token?.address || row.receiver !== receiver || !held.gt(0)) continue;
    await topUpLocalWallet(rpc, receiver, {
      mint: token.address,
      decimals: token.decimals,
      units: toBaseUnits(held.toFixed(), token.decimals),
    });
  }
}

/** Where this machine reaches the server listening on `host`. */
function reachableHost(host: string) {
  if (host === "0.0.0.0" || host === "::") return "127.0.0.1";
  return host.includes(":") ? `[${host}]` : host;
}

async function waitForHealth(url: string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server?.exitCode !== null && server?.exitCode !== undefined)
      throw new Error("the server exited during start-up");
    try {
      // Up, not ready: a stalled RPC or an old backlog must not stop the start (/api/health says so).
      const response = await fetch(`${url}/api/health/live`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the server did not become healthy within ${timeoutMs / 1000}s`);
}

function banner(demo: DemoCredentials | null, mailboxKey: string | undefined) {
  const { baseUrl, serviceName } = settings;
  const lines = [
    "",
    `${serviceName} is running at ${baseUrl}`,
    `  database: ${embedded ? `embedded PostgreSQL in ${path.resolve(settings.dataDir)}` : "DATABASE_URL"}`,
    `  health:   ${baseUrl}/api/health`,
  ];
  if (chain) {
    lines.push(
      `  devnet:   ${chain.devnet.rpcUrl} (chain ${chain.network.chainId}), ETH and test USDC ${chain.network.tokens[0].address}`,
      // Hardhat's public development key, so an agent can pay with x402 here at once.
      `  buyer:    ${devnetBuyer.address} holds ${devnetBuyerUsdc} test USDC; key ${devnetBuyerKey} (Hardhat's, public, devnet only)`,
      `  test pay: the pay page's button and \`npm run devnet:pay -- <invoice id>\` pay from ${devnetTestWallet.address}; a refund to "payer" returns there`,
    );
    if (chain.restarted) {
      // Hardhat's node keeps no state between starts: say what became of the last run's chain.
      const { restoredDeposits } = chain.restarted;
      lines.push(
        "            the devnet is a new chain from block 0: earlier transactions are not on it;",
        `            the ledger's unswept funds were put back (${restoredDeposits} deposit address${restoredDeposits === 1 ? "" : "es"}), sweeps and refunds in flight failed (ask again)`,
      );
    }
  }
  if (solana) {
    lines.push(
      `  solana:   ${solana.url} (solana-local, a fresh chain each start), SOL and test USDC ${solana.usdcMint}`,
      // Hardhat's test mnemonic's Solana account #1 (m/44'/501'/1'/0'), as Phantom and Solflare derive it.
      `  buyer:    ${localSolanaBuyer.address} holds ${localSolanaBuyerFunds.sol} SOL and ${localSolanaBuyerFunds.usdc} test USDC; key ${walletSecret(localSolanaBuyer)} (Hardhat mnemonic's, public, local only)`,
    );
  }
  lines.push(`  sign in:  ${baseUrl}/login${demo ? ` as ${demo.ownerEmail}` : ""}`);
  if (mailboxKey) {
    lines.push(
      `            the sign-in link arrives in the mailbox (no SMTP_URL set): ${baseUrl}/dev/mailbox?key=${mailboxKey}`,
      "            (the key opens it for 12 hours in that browser; whoever has the link can sign in as anyone)",
    );
  }
  if (demo) {
    lines.push(
      "",
      `Demo merchant ${demo.organizationId} (owner ${demo.ownerEmail})`,
      `  API key: ${demo.apiKey}`,
      "",
      "Try it:",
      `  curl ${baseUrl}/api/private/organization/current -H "Authorization: Bearer ${demo.apiKey}"`,
    );
    if (chain) {
      lines.push(
        "",
        'Agents pay with x402 or MPP: create a paylink, then pay its x402Url as the buyer above (docs/agents.md, "Agents that pay"):',
        `  curl ${baseUrl}/api/private/paylinks/create -H "Authorization: Bearer ${demo.apiKey}" \\`,
        `    -H "Content-Type: application/json" -d '{"name": "Sticker", "amount": "1.00", "currency": "USD"}'`,
      );
    }
  }
  console.log(`${lines.join("\n")}\n`);
}

async function main() {
  if (!dev) buildIfNeeded();
  embedded = settings.databaseUrl ? undefined : await startRecordedEmbeddedPostgres();
  const databaseUrl = settings.databaseUrl ?? (embedded as EmbeddedPostgres).url;
  const applied = await applyMigrations(databaseUrl);
  if (applied.length) console.log(`Applied migrations: ${applied.join(", ")}`);

  const secretKey = process.env.SERVICE_SECRET_KEY || (await localSecretKey());
  const mailboxKey = await devMailboxKey();
  const database = createDb(databaseUrl, 1);
  const demo = settings.seedDemo
    ? await ensureDemoOrganization(database, path.resolve(settings.dataDir))
    : null;
  chain = wantsDevnet() ? await startChain(database) : undefined;
  const mnemonic = chain?.env.SERVICE_HD_MNEMONIC;
  solana = wantsDevnet() && mnemonic ? await startSolanaChain(database, mnemonic) : undefined;
  const networks = [
    ...(chain ? [chain.network] : []),
    ...(solana ? [localSolanaNetwork({ rpcUrl: solana.url })] : []),
  ];
  await closeDb(database);

  server = spawn(
    process.execPath,
    // tsx as a loader, not its CLI: the CLI relays signals to a child process of its own and
    // SIGKILLs it (exiting 143) when a signal goes unacknowledged for ~60 ms, as it may with the
    // server busy mid-burst, or with one stop arriving twice (process group, then forwarded).
    // Without V8's allocation-site pretenuring: it took the sites of Next.js's per-request objects
    // for long-lived ones and allocated them in the old generation, where each kept the rest of its
    // request alive through every young-generation collection until the next full one; each of
    // those collections then copied megabytes and paused every request under way for tens of
    // milliseconds (docs/operations.md, "Where the latency tail comes from").
    ["--no-allocation-site-pretenuring", "--import", "tsx", "scripts/serve.ts", ...(dev ? ["--dev"] : [])],
    {
      cwd: root,
      stdio: "inherit",
      env: {
        ...process.env,
        NODE_ENV: dev ? "development" : "production",
        DATABASE_URL: databaseUrl,
        SERVICE_SECRET_KEY: secretKey,
        ...(mailboxKey ? { SERVICE_DEV_MAILBOX_KEY: mailboxKey } : {}),
        ...chain?.env,
        ...(networks.length ? { SERVICE_NETWORKS: JSON.stringify(networks) } : {}),
        // The zero-setup start is a laptop: webhooks to a local receiver are the common case.
        ...(embedded && !process.env.SERVICE_WEBHOOK_ALLOW_PRIVATE_URLS
          ? { SERVICE_WEBHOOK_ALLOW_PRIVATE_URLS: "true" }
          : {}),
        // Without SMTP the zero-setup start shows sign-in emails on /dev/mailbox.
        ...(embedded && !process.env.SERVICE_DEV_MAILBOX ? { SERVICE_DEV_MAILBOX: "true" } : {}),
        // The embedded server multiplexes connections into one PostgreSQL session, so transactions
        // on separate connections would not be isolated: one connection keeps them apart.
        ...(embedded ? { DATABASE_POOL_SIZE: "1" } : {}),
        // One process on a laptop: it sweeps itself, and wallet changes take effect at once.
        ...(embedded && !process.env.SERVICE_SWEEPER ? { SERVICE_SWEEPER: "in-process" } : {}),
        ...(embedded && !process.env.SERVICE_SETTLEMENT_CHANGE_DELAY
          ? { SERVICE_SETTLEMENT_CHANGE_DELAY: "0" }
          : {}),
        NEXT_TELEMETRY_DISABLED: "1",
      },
    },
  );
  server.on("exit", (code) => void shutdown({ code: code ?? 1 }));
  const localUrl = `http://${reachableHost(settings.host)}:${settings.port}`;
  await waitForHealth(localUrl, 120_000);
  forgetRunningApp = await recordRunningApp(localUrl);
  banner(demo, mailboxKey);
}

main().catch(async (error) => {
  console.error(`start failed: ${(error as Error).message}`);
  await shutdown({ code: 1 });
});
