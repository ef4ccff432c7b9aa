import { config } from "../config";
import type { Db } from "../db/client";

export type WatcherProgress = {
  network: string;
  /** The head the watcher last read, and the last block it scanned; null before the first scan. */
  headBlock: number | null;
  scannedBlock: number | null;
  lagBlocks: number | null;
  /** Since the watcher last reached the chain; null before the first scan. */
  secondsSinceCheck: number | null;
};

/** How far each configured network's watcher is behind, as recorded in its cursor. */
export async function measureWatchers(database: Db, now = new Date()): Promise<WatcherProgress[]> {
  const cursors = await database.chainCursor.findMany();
  return config().networks.map((network) => {
    const cursor = cursors.find((row) => row.network === network.id);
    const headBlock = cursor?.headBlock ?? null;
    const scannedBlock = cursor?.lastScannedBlock ?? null;
    return {
      network: network.id,
      headBlock: headBlock === null ? null : Number(headBlock),
      scannedBlock: scannedBlock === null ? null : Number(scannedBlock),
      lagBlocks:
        headBlock === null || scannedBlock === null ? null : Math.max(0, Number(headBlock - scannedBlock)),
      secondsSinceCheck: cursor?.checkedAt ? (now.getTime() - cursor.checkedAt.getTime()) / 1000 : null,
    };
  });
}
