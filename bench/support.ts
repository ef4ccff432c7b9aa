// Shared by the benchmarks: a production app on a fresh PostgreSQL database, and a merchant.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { applyMigrations } from "../lib/db/schema-engine";
import { serverPids } from "../scripts/test-support/server-pids";

export const root = path.resolve(import.meta.dirname, "..");
const tsx = path.join(root, "node_modules/tsx/dist/cli.mjs");

/**
 * A new database on BENCH_DATABASE_URL's (or TEST_DATABASE_URL's) PostgreSQL server, migrated
 * when asked; drop() removes it.
 */
export async function createBenchDatabase(prefix: string, options: { migrate?: boolean } = {}) {
  const serverUrl =
    process.env.BENCH_DATABASE_URL ??
    process.env.TEST_DATABASE_URL ??
    "postgresql://postgres@127.0.0.1:5432/postgres";
  const name = `${prefix}_${Date.now()}`;
  const admin = new pg.Client(serverUrl);
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  if (options.migrate) await applyMigrations(url.toString());
  return {
    url,
    drop: async () => {
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    },
  };
}

export type App = {
  port: number;
  baseUrl: string;
  env: Record<string, string>;
  stop: () => Promise<void>;
  /** The server's garbage-collection pauses between two Date.now() readings (with `gcLog`). */
  gcPauses: (fromMs: number, toMs: number) => GcPauses;
};

export type GcPauses = { count: number; minor: number; totalMs: number; maxMs: number };

/**
 * Starts `npm start` on a new database of the PostgreSQL server at BENCH_DATABASE_URL. With
 * `gcLog`, the server records its garbage-collection pauses (bench/server-gc.ts).
 */
export async function startApp(options: {
  port: number;
  env?: Record<string, string>;
  gcLog?: boolean;
}): Promise<App> {
  const database = await createBenchDatabase("cc_bench");
  const url = database.url;
  const dataDir = path.join(root, ".data", `bench-${options.port}`);
  const gcFile = path.join(dataDir, "gc.log");
  mkdirSync(dataDir, { recursive: true });
  rmSync(gcFile, { force: true });
  const env = {
    PORT: String(options.port),
    DATABASE_URL: url.toString(),
    SERVICE_BASE_URL: `http://127.0.0.1:${options.port}`,
    SERVICE_DATA_DIR: dataDir,
    LOG_LEVEL: "warn",
    SERVICE_SECRET_KEY: randomBytes(32).toString("base64"),
    SERVICE_WEBHOOK_ALLOW_PRIVATE_URLS: "true",
    ...(options.gcLog
      ? {
          BENCH_GC_FILE: gcFile,
          // NODE_OPTIONS' imports load before the command line's `--import tsx`, and the observer
          // is TypeScript: tsx goes first here too.
          NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --import tsx --import ./bench/server-gc.ts`.trim(),
        }
      : {}),
    ...options.env,
  };
  const child: ChildProcess = spawn(process.execPath, [tsx, "scripts/start.ts"], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const baseUrl = `http://127.0.0.1:${options.port}`;
  for (let waited = 0; ; waited += 500) {
    if (waited > 600_000) throw new Error("the app did not start");
    try {
      if ((await fetch(`${baseUrl}/api/health`)).ok) break;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return {
    port: options.port,
    baseUrl,
    env,
    stop: async () => {
      // npm start shuts its server and devnet down before it exits: the port is free afterwards.
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
      await database.drop();
    },
    gcPauses: (fromMs, toMs) => summarisePauses(gcFile, fromMs, toMs),
  };
}

/** Reads the pauses server-gc.ts wrote (a line a pause: start ms, 1 if minor, duration ms). */
function summarisePauses(file: string, fromMs: number, toMs: number): GcPauses {
  const lines = existsSync(file) ? readFileSync(file, "utf8").trim().split("\n") : [];
  const pauses = lines
    .map((line) => line.split(" ").map(Number))
    .filter(([start]) => start >= fromMs && start <= toMs);
  const durations = pauses.map(([, , ms]) => ms);
  return {
    count: pauses.length,
    minor: pauses.filter(([, minor]) => minor === 1).length,
    totalMs: durations.reduce((sum, ms) => sum + ms, 0),
    maxMs: Math.max(0, ...durations),
  };
}

/** CPU time (user + system, ms) process `pid` has used so far; 0 once it is gone. */
function processCpuMs(pid: number): number {
  try {
    // Fields 14 and 15 of /proc/<pid>/stat, after the parenthesised command name, in clock ticks.
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicksPerSecond;
  } catch {
    return 0;
  }
}

/** CPU time (user + system, ms) the server listening on `port` has used so far. */
export function serverCpuMs(port: number): number {
  return processCpuMs(serverPids(port)[0] as number);
}

/**
 * CPU time (ms) PostgreSQL's backends serving `database` have used so far: the ones alive now,
 * which for a server's pooled connections are the ones that served it.
 */
export function databaseCpuMs(database: string): number {
  const pids = execFileSync("ps", ["-eo", "pid=,args="], { encoding: "utf8" })
    .split("\n")
    .filter((line) => line.includes(`postgres: `) && line.includes(` ${database} `))
    .map((line) => Number(line.trim().split(" ")[0]));
  return pids.reduce((sum, pid) => sum + processCpuMs(pid), 0);
}

/** USER_HZ: 100 on every Linux this runs on. */
const clockTicksPerSecond = 100;

export function createMerchant(app: App): { organizationId: string; apiKey: string } {
  const output = execFileSync(
    process.execPath,
    [
      tsx,
      "scripts/admin.ts",
      "org:create",
      "--name",
      "Bench Store",
      "--email",
      "bench@example.com",
      "--json",
    ],
    { cwd: root, env: { ...process.env, ...app.env } },
  );
  return JSON.parse(output.toString().trim().split("\n").at(-1) as string);
}

export type Measured = { name: string; requestsPerSecond: number; p50: number; p99: number; non2xx: number };

export async function measure(name: string, options: autocannon.Options): Promise<Measured> {
  const result = await autocannon({ connections: 32, duration: 10, ...options });
  return {
    name,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx + result.errors + result.timeouts,
  };
}

export function printTable(rows: Measured[], ceiling: Measured) {
  console.log("\nscenario                         req/s    p50 ms   p99 ms   x ceiling   non-2xx");
  for (const row of rows) {
    console.log(
      `${row.name.padEnd(30)} ${row.requestsPerSecond.toFixed(0).padStart(7)} ${row.p50.toFixed(1).padStart(9)} ${row.p99
        .toFixed(1)
        .padStart(
          8,
        )} ${(row.requestsPerSecond / ceiling.requestsPerSecond).toFixed(2).padStart(11)} ${String(row.non2xx).padStart(9)}`,
    );
  }
}
