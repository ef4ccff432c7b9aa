import { PrismaPg } from "@prisma/adapter-pg";
import type pg from "pg";
import { config } from "../config";
import { stopCredentialCacheHere } from "../credential-cache/credential-cache";
import { PrismaClient } from "../generated/prisma/client";
import { processWide } from "../process-wide";
import { createPool } from "./create-pool";

export type Db = PrismaClient;
export type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

/**
 * Work a caller needs committed together with a domain change or not at all (e.g. marking the
 * confirmation token that allowed it as used): domain functions run it inside their transaction.
 */
export type AlongsideWork = (tx: Tx) => Promise<void>;

// Prisma and the few hot-path raw queries share one pg pool per client, so a process holds one
// set of connections however it queries. The pool rides on the client under a global symbol:
// the bundler may load this module more than once, and a module-level map would not be shared.
const poolKey = Symbol.for("crypto-checkout.pg-pool");
type WithPool = PrismaClient & { [poolKey]?: pg.Pool };

export function createDb(connectionString: string, poolSize = 10): PrismaClient {
  const pool = createPool(connectionString, poolSize);
  const client: WithPool = new PrismaClient({
    adapter: new PrismaPg(pool),
    // A busy moment must make a transaction take longer, not fail after Prisma's default 5 s: a
    // starved event loop (seen on a loaded 2-core machine) stretched a three-statement
    // transaction past it. On one connection (the embedded database, which answers one query at
    // a time) every transaction also queues for it, so waiting for it gets as long.
    transactionOptions: { timeout: 15_000, ...(poolSize === 1 ? { maxWait: 15_000 } : {}) },
  });
  client[poolKey] = pool;
  return client;
}

/** The pg pool under a client, for the hottest queries where Prisma's per-query cost shows. */
export function sqlPool(database: Db): pg.Pool {
  const pool = (database as WithPool)[poolKey];
  if (!pool) throw new Error("this client was not made by createDb");
  return pool;
}

/** Closes a client made by createDb and its connections. */
export async function closeDb(database: Db): Promise<void> {
  await database.$disconnect();
  await (database as WithPool)[poolKey]?.end();
}

// One client per process. Dev-mode hot reloads re-evaluate modules, so it is process-wide.
const holder = processWide("db", () => ({ client: undefined as PrismaClient | undefined }));

/** The process's client, on the configured DATABASE_URL. */
export function db(): PrismaClient {
  if (!holder.client) {
    const { databaseUrl, databasePoolSize } = config();
    if (!databaseUrl) {
      throw new Error("DATABASE_URL is not set. Start the app with `npm start`, which provides one.");
    }
    holder.client = createDb(databaseUrl, databasePoolSize);
  }
  return holder.client;
}

export async function disconnectDb(): Promise<void> {
  // The credential cache's listener is one of the process's connections too.
  await stopCredentialCacheHere();
  if (holder.client) await closeDb(holder.client);
  holder.client = undefined;
}
