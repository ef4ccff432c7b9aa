import type { NetworkConfig } from "../chains/networks";
import type { Db } from "../db/client";
import { log } from "../log";
import { openSweepStatuses, type SweepStatus } from "./sweep-state";
import type { Sweep } from "./sweep-transactions";

/** Open sweeps handled per pass. */
const sweepsPerPass = 200;

export type AdvanceResult = Record<SweepStatus, number>;

/**
 * One pass over the network's open sweeps, oldest first, each with the transactions of its current
 * attempt, handed to `advance`; returns how many ended the pass in each status. A sweep whose step
 * throws (a node hiccup) stays where it is: the next pass continues from the records.
 */
export async function loadOpenSweeps(
  database: Db,
  network: NetworkConfig,
  advance: (sweep: Sweep) => Promise<SweepStatus>,
): Promise<AdvanceResult> {
  const sweeps = await database.sweep.findMany({
    where: { network: network.id, status: { in: [...openSweepStatuses] } },
    include: {
      transactions: { orderBy: { createdAt: "asc" } },
      invoice: { select: { derivationIndex: true } },
    },
    orderBy: { createdAt: "asc" },
    take: sweepsPerPass,
  });
  for (const sweep of sweeps) {
    // A retried sweep follows only its own attempt: an earlier attempt's reverted transfer or
    // mined top-up says nothing about this one.
    sweep.transactions = sweep.transactions.filter((transaction) => transaction.attempt === sweep.attempt);
  }
  const result: AdvanceResult = {
    PENDING: 0,
    FUNDING: 0,
    SUBMITTED: 0,
    CONFIRMED: 0,
    FAILED: 0,
    DEFERRED: 0,
  };
  for (const sweep of sweeps) {
    try {
      result[await advance(sweep)]++;
    } catch (error) {
      log.warn({ err: error, sweepId: sweep.id }, "sweep pass interrupted");
      result[sweep.status]++;
    }
  }
  return result;
}
