import { setTimeout as sleep } from "node:timers/promises";
import { chainFamily } from "../chains/chain-families";
import type { NetworkConfig } from "../chains/networks";
import { config } from "../config";
import type { Db } from "../db/client";
import { log } from "../log";
import { metrics } from "../metrics/metrics";
import { recordWatcherCheck } from "./record-watcher-check";
import { scanNetwork } from "./scan-network";
import { processWatchSets, type WatchSets } from "./watch-set";

/** On an idle chain the watcher's last check is still written this often, for health and lag. */
const checkRecordMs = 5_000;

/**
 * How often to ask for the head: an eighth of the block time, at most 250 ms and at least 100 ms
 * apart, so a new block is seen within 250 ms (the scan then confirms within about 500 ms of it)
 * while an idle chain costs one cheap eth_blockNumber per poll.
 */
export function headPollIntervalMs(network: NetworkConfig): number {
  return Math.min(250, Math.max(100, Math.floor((network.blockTimeMs ?? 2_000) / 8)));
}

/** Polls one network's head and scans whenever it moves, until the signal aborts. */
async function followNetwork(
  database: Db,
  network: NetworkConfig,
  signal: AbortSignal,
  watchSets: WatchSets,
) {
  const family = chainFamily(network);
  const client = family.client(network);
  const reader = family.transferReader(client, network);
  const pollMs = headPollIntervalMs(network);
  let scanned: bigint | undefined;
  let backoffMs = 1_000;
  let recordedAt = Number.NEGATIVE_INFINITY;
  while (!signal.aborted) {
    const polled = performance.now();
    let waitMs = pollMs;
    try {
      const head = await reader.head();
      // The first poll always scans: it settles what happened while nobody watched.
      const moved = head !== scanned;
      if (moved) {
        await scanNetwork(database, network, client, { head, signal, watchSets });
        scanned = head;
      }
      if (moved || polled - recordedAt >= checkRecordMs) {
        await recordWatcherCheck(database, network.id, head);
        recordedAt = polled;
      }
      backoffMs = 1_000;
    } catch (error) {
      if (signal.aborted) break;
      if (family.isRpcError(error)) metrics().rpcErrors.inc({ network: network.id });
      log.warn({ network: network.id, err: error }, "chain scan failed; retrying");
      waitMs = backoffMs;
      backoffMs = Math.min(backoffMs * 2, 30_000);
    }
    // The interval runs from the poll, not from the end of a scan, so a slow scan adds no wait.
    await sleep(Math.max(0, waitMs - (performance.now() - polled)), undefined, { signal }).catch(() => {});
  }
}

/**
 * The chain watcher: follows every configured network's new heads (each on its own, so a slow
 * RPC delays only its network) and scans on each, until the signal aborts. Run under the
 * scan-networks lease, so one instance watches at a time. `watchSets` is the instance's memory of
 * watched addresses (lib/payments/watch-set.ts), kept between passes and caught up on each scan,
 * so an instance taking the lease over resumes from what it knew, however long ago.
 */
export async function watchConfiguredNetworks(
  database: Db,
  signal: AbortSignal,
  watchSets: WatchSets = processWatchSets(database),
) {
  await Promise.all(config().networks.map((network) => followNetwork(database, network, signal, watchSets)));
}
