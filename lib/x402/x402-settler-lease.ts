import type { Db, Tx } from "../db/client";
import type { X402Settlement } from "../generated/prisma/client";
import { log } from "../log";

/**
 * A settler renews its claim on a SETTLING row this often while the chain is awaited (the row's
 * `updatedAt`); a row not renewed for `settlerLeaseMs` lost its settler (a crash, a restart), and
 * the next copy of the payment may take it over.
 */
const leaseRenewalMs = 10_000;
const settlerLeaseMs = 30_000;

/**
 * An `updatedAt` that hands the lease back: the payer's next copy takes the row over at once. Long
 * past by any clock, so no difference between ours and the database's can make it look held.
 */
export const lapsedLease = () => new Date(0);

/**
 * Renews a SETTLING row's lease at the database's now(): the clock `takeOverStaleX402Settlement`
 * compares with, so an app clock behind the database's cannot make a live settler look gone.
 */
export async function renewX402Lease(database: Db | Tx, id: string): Promise<void> {
  await database.$executeRaw`
    UPDATE "X402Settlement" SET "updatedAt" = now() WHERE "id" = ${id} AND "status" = 'SETTLING'`;
}

/** While `work` runs, the row's lease is renewed, so copies know its settler is alive. */
export async function holdingX402Lease<T>(database: Db, id: string, work: () => Promise<T>): Promise<T> {
  const timer = setInterval(() => {
    renewX402Lease(database, id).catch((error) =>
      log.warn({ err: error, settlementId: id }, "x402 settlement lease not renewed"),
    );
  }, leaseRenewalMs);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

/**
 * Takes over a SETTLING row whose settler stopped renewing its lease: one statement, so of two
 * copies (or instances) that find it stale, one wins. The winner settles it; no lock is held.
 */
export async function takeOverStaleX402Settlement(
  database: Db,
  id: string,
): Promise<X402Settlement | undefined> {
  const [row] = await database.$queryRaw<X402Settlement[]>`
    UPDATE "X402Settlement" SET "updatedAt" = now()
    WHERE "id" = ${id} AND "status" = 'SETTLING' AND "updatedAt" < now() - ${settlerLeaseMs} * interval '1 millisecond'
    RETURNING *`;
  return row;
}
