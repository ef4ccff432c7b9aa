// Finds the database a command should use: DATABASE_URL when set; otherwise the embedded
// PostgreSQL of a running `npm start` (it records its address in the data directory); otherwise
// a short-lived embedded server over the same data directory.
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { config } from "../lib/config";
import { type EmbeddedPostgres, startEmbeddedPostgres } from "../lib/db/embedded-postgres";
import { applyMigrations } from "../lib/db/schema-engine";

const dataDir = () => path.resolve(config().dataDir);
const addressFile = () => path.join(dataDir(), "postgres.json");

async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query("select 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

async function runningEmbeddedUrl(): Promise<string | undefined> {
  const recorded = await readFile(addressFile(), "utf8").catch(() => null);
  if (!recorded) return undefined;
  const { url, pid } = JSON.parse(recorded) as { url: string; pid: number };
  try {
    process.kill(pid, 0);
  } catch {
    return undefined;
  }
  return (await reachable(url)) ? url : undefined;
}

/** Starts the embedded server over the data directory and records its address for other commands. */
export async function startRecordedEmbeddedPostgres(port = 0): Promise<EmbeddedPostgres> {
  await mkdir(dataDir(), { recursive: true });
  const embedded = await startEmbeddedPostgres({ dataDir: path.join(dataDir(), "pglite"), port });
  await writeFile(addressFile(), JSON.stringify({ url: embedded.url, pid: process.pid }), { mode: 0o600 });
  return {
    ...embedded,
    stop: async () => {
      await rm(addressFile(), { force: true });
      await embedded.stop();
    },
  };
}

export async function withDatabase<T>(
  run: (url: string) => Promise<T>,
  options: { migrate: boolean } = { migrate: true },
): Promise<T> {
  const configured = config().databaseUrl ?? (await runningEmbeddedUrl());
  const embedded = configured ? undefined : await startRecordedEmbeddedPostgres();
  const url = configured ?? (embedded as EmbeddedPostgres).url;
  try {
    if (options.migrate) await applyMigrations(url);
    return await run(url);
  } finally {
    await embedded?.stop();
  }
}
