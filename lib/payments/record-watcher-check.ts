import type { Db } from "../db/client";

/**
 * Notes a successful poll of a network's head, so every instance can tell how far behind the
 * watcher is and when it last reached the chain. The row exists once the first scan has run.
 */
export async function recordWatcherCheck(database: Db, network: string, head: bigint, now = new Date()) {
  await database.chainCursor.updateMany({ where: { network }, data: { headBlock: head, checkedAt: now } });
}
