import type { PeriodicTask } from "../jobs/periodic-task";
import { applyDueSettlementChanges } from "../settlement/apply-due-settlement-changes";
import { sweepNetworks } from "../sweeps/sweep-networks";
import { sweeperKeysFromMnemonic } from "../sweeps/sweeper-keys";

/**
 * The sweeper as a periodic task: one lease, so the in-process sweeper of `npm start` and
 * `npm run sweeper` processes never sweep at the same time. Needs the mnemonic.
 */
export function sweepNetworksTask(mnemonic: string): PeriodicTask {
  const keys = sweeperKeysFromMnemonic(mnemonic);
  return {
    name: "sweep-networks",
    intervalMs: 5_000,
    // Never an Inngest function: the web tier holds no key. `npm run sweeper` runs it instead.
    cron: "* * * * *",
    leaseMs: 60_000,
    run: async (database, { signal }) => {
      // Due settlement changes take effect first, so this pass plans and signs for the wallets in force.
      await applyDueSettlementChanges(database, new Date());
      await sweepNetworks(database, keys, signal);
    },
  };
}
