import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { config } from "../config";
import { PrismaClient } from "../generated/prisma/client";

export type Db = PrismaClient;
export type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

// Prisma and the few hot-path raw queries share one pg pool per client, so a process holds one
// set of connections however it queries.
const pools = new WeakMap<PrismaClient, pg.Pool>();

export function createDb(connectionString: string, poolSize = 10): PrismaClient {
  const pool = new pg.Pool({ connectionString, max: poolSize });
  const client = new PrismaClient({ adapter: new PrismaPg(pool) });
  pools.set(client, pool);
  return client;
}

/** The pg pool under a client, for the hottest queries where Prisma's per-query cost shows. */
export function sqlPool(database: Db): pg.Pool {
  const pool = pools.get(database);
  if (!pool) throw new Error("this client was not made by createDb");
  return pool;
}

/** Closes a client made by createDb and its connections. */
export async function closeDb(database: Db): Promise<void> {
  await database.$disconnect();
  await pools.get(database)?.end();
}

// One client per process. Dev-mode hot reloads re-evaluate modules, so it lives on globalThis.
const holder = globalThis as typeof globalThis & { __cryptoCheckoutDb?: PrismaClient };

/** The process's client, on the configured DATABASE_URL. */
export function db(): PrismaClient {
  if (!holder.__cryptoCheckoutDb) {
    const { databaseUrl, databasePoolSize } = config();
    if (!databaseUrl) {
      throw new Error("DATABASE_URL is not set. Start the app with `npm start`, which provides one.");
    }
    holder.__cryptoCheckoutDb = createDb(databaseUrl, databasePoolSize);
  }
  return holder.__cryptoCheckoutDb;
}

export async function disconnectDb(): Promise<void> {
  if (holder.__cryptoCheckoutDb) await closeDb(holder.__cryptoCheckoutDb);
  holder.__cryptoCheckoutDb = undefined;
}
