// The app under end-to-end test: `npm start` on a fresh database (a new PostgreSQL database when
// TEST_DATABASE_URL is set, else a fresh embedded one), with its settings written where the e2e
// fixtures can read them to run admin commands against the same database.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { databaseUrlWithName, serverTestDatabaseUrl } from "./test-support/database-urls";
import { e2eEnvFile } from "./test-support/e2e-env";

const root = path.resolve(import.meta.dirname, "..");
const port = Number(process.env.E2E_PORT ?? 3100);
const dataDir = path.join(root, ".data", `e2e-${port}`);
// E2E_RESTART=1 brings the same app back on the same database, as after a crash.
const restart = process.env.E2E_RESTART === "1";
const previous = restart
  ? (JSON.parse(await readFile(e2eEnvFile(port), "utf8")) as Record<string, string>)
  : undefined;
// E2E_JOIN=<port> starts a second instance on the database (and secret key) of the app on that port.
const joined = process.env.E2E_JOIN
  ? (JSON.parse(await readFile(e2eEnvFile(Number(process.env.E2E_JOIN)), "utf8")) as Record<string, string>)
  : undefined;
if (!restart) await rm(dataDir, { recursive: true, force: true });

const serverUrl = serverTestDatabaseUrl();
let databaseUrl: string | undefined = previous?.DATABASE_URL ?? joined?.DATABASE_URL;
if (serverUrl && !previous && !joined) {
  const admin = new pg.Client(serverUrl);
  await admin.connect();
  // Databases of earlier runs that were killed before they could clean up.
  const stale = await admin.query<{ datname: string }>(
    `SELECT datname FROM pg_database WHERE datname LIKE 'cc_e2e_${port}_%'`,
  );
  for (const { datname } of stale.rows)
    await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  const name = `cc_e2e_${port}_${Date.now()}`;
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  databaseUrl = databaseUrlWithName(serverUrl, name);
}

const env: Record<string, string> = previous ?? {
  PORT: String(port),
  SERVICE_BASE_URL: `http://127.0.0.1:${port}`,
  SERVICE_DATA_DIR: dataDir,
  LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
  SERVICE_SECRET_KEY: joined?.SERVICE_SECRET_KEY ?? randomBytes(32).toString("base64"),
  // Sign-in links are read from the development mailbox page, opened with its key (e2e/fixtures.ts).
  SERVICE_DEV_MAILBOX: "true",
  SERVICE_DEV_MAILBOX_KEY: joined?.SERVICE_DEV_MAILBOX_KEY ?? randomBytes(32).toString("base64url"),
  // Every spec signs in and pays from 127.0.0.1; the per-address and per-paylink limits still hold.
  SERVICE_RATE_LIMIT_EMAILS_PER_CLIENT_PER_HOUR: "100000",
  SERVICE_RATE_LIMIT_CHECKOUTS_PER_CLIENT_PER_HOUR: "100000",
  // The MCP conformance suite sends over 100 requests a second with one key on a quiet machine; its
  // last check then met a 429. The per-key limit has integration tests of its own.
  SERVICE_RATE_LIMIT_API_PER_SECOND: "100000",
  // Specs test refused credentials and start agent setups, all from that one address.
  SERVICE_RATE_LIMIT_AUTH_FAILURES_PER_MINUTE: "100000",
  SERVICE_RATE_LIMIT_AGENT_SETUPS_PER_HOUR: "100000",
  // Test receivers listen on loopback.
  SERVICE_WEBHOOK_ALLOW_PRIVATE_URLS: "true",
  // One process that also signs sweeps, on PostgreSQL or embedded alike.
  SERVICE_SWEEPER: "in-process",
  // A devnet of its own, so buyers can pay end to end.
  SERVICE_DEVNET: "true",
  // E2E_DEVNET_PORT_BASE moves the devnets off ports another checkout's tests use.
  SERVICE_DEVNET_PORT: String(Number(process.env.E2E_DEVNET_PORT_BASE ?? 8700) + (port % 100)),
  // The local Solana chain two hundred ports above, clear of the devnets and of its default 8899.
  SERVICE_SOLANA_DEVNET_PORT: String(Number(process.env.E2E_DEVNET_PORT_BASE ?? 8700) + 200 + (port % 100)),
  ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
};
await mkdir(path.dirname(e2eEnvFile(port)), { recursive: true });
await writeFile(e2eEnvFile(port), JSON.stringify(env));

// tsx as a loader, not its CLI, which relays signals through a process of its own (see start.ts).
const child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, ...env, DATABASE_URL: databaseUrl ?? "" },
});
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
child.on("exit", (code) => process.exit(code ?? 1));
