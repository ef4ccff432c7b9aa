import { PrismaPg } from "@prisma/adapter-pg";
import { config } from "../config";
import { PrismaClient } from "../generated/prisma/client";

export type Db = PrismaClient;
export type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

// One client per process. Dev-mode hot reloads re-evaluate modules, so it lives on globalThis.
const holder = globalThis as typeof globalThis & { __cryptoCheckoutDb?: PrismaClient };

export function createDb(connectionString: string, poolSize = 10): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString, max: poolSize }) });
}

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
  await holder.__cryptoCheckoutDb?.$disconnect();
  holder.__cryptoCheckoutDb = undefined;
}
