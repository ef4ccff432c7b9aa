import { confirmationTtlSeconds } from "crypto-checkout-agent/catalog";
import type { Db } from "../db/client";

/**
 * Forgets used confirmation tokens once they could no longer be presented anyway (expired, with
 * an hour's margin for clock skew between instances): a periodic task.
 */
export async function purgeUsedConfirmations(database: Db, now = new Date()): Promise<number> {
  const { count } = await database.usedConfirmation.deleteMany({
    where: { usedAt: { lt: new Date(now.getTime() - confirmationTtlSeconds * 1000 - 60 * 60_000) } },
  });
  return count;
}
