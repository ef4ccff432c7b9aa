import { sweepNetworks } from "../sweeps/sweep-networks";
import { sweeperKeysFromMnemonic } from "../sweeps/sweeper-keys";
import type { PeriodicTask } from "./periodic-task";

/**
 * The sweeper as a periodic task: one lease, so the in-process sweeper of `npm start` and
 * `npm run sweeper` processes never sweep at the same time. Needs the mnemonic.
 */
export function sweepNetworksTask(mnemonic: string): PeriodicTask {
  const keys = sweeperKeysFromMnemonic(mnemonic);
  return {
    name: "sweep-networks",
    intervalMs: 5_000,
    leaseMs: 60_000,
    run: (database, { signal }) => sweepNetworks(database, keys, signal),
  };
}
