import type { Db } from "../db/client";

/** Keys are answered from storage for 48 hours (docs/api.md, "Idempotency"). */
export const idempotencyKeyRetentionMs = 48 * 60 * 60 * 1000;

/** Forgets keys past retention (a periodic task). */
export async function purgeIdempotencyKeys(database: Db, now = new Date()): Promise<number> {
  const { count } = await database.idempotencyKey.deleteMany({
    where: { createdAt: { lt: new Date(now.getTime() - idempotencyKeyRetentionMs) } },
  });
  return count;
}
