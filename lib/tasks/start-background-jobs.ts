import { config } from "../config";
import { db } from "../db/client";
import { type PeriodicTask, startPeriodicTask } from "../jobs/periodic-task";
import { log } from "../log";
import { processWide } from "../process-wide";
import { reportFacilitatorWalletsTask } from "../x402/report-facilitator-wallets";
import { backgroundTasks } from "./background-tasks";
import { sweepNetworksTask } from "./sweep-networks-task";

/**
 * The sweeper runs here only when this process holds the mnemonic and is not told otherwise; so
 * does the built-in x402 facilitator, unless an external one is configured, with its wallets' report.
 */
function inProcessSweeper(): PeriodicTask[] {
  const { hdMnemonic, sweeper, x402, networks } = config();
  if (!hdMnemonic || !sweeper.inProcess) return [];
  return [
    sweepNetworksTask(hdMnemonic),
    ...(x402.facilitatorUrl ? [] : [reportFacilitatorWalletsTask(hdMnemonic, networks)]),
  ];
}

const holder = processWide("background-jobs", () => ({
  stop: undefined as (() => Promise<void>) | undefined,
}));

/** Starts the in-process engine once per process; returns what stopBackgroundJobs does. */
export function startBackgroundJobs(): () => Promise<void> {
  if (!holder.stop) {
    const tasks = [...backgroundTasks, ...inProcessSweeper()];
    const stops = tasks.map((task) => startPeriodicTask(db(), task));
    log.info({ tasks: tasks.map((task) => task.name) }, "in-process jobs started");
    holder.stop = async () => {
      holder.stop = undefined;
      await Promise.all(stops.map((stop) => stop()));
    };
  }
  return holder.stop;
}

/**
 * Stops this process's engine for shutdown: no new pass starts, running passes stop at their
 * next checkpoint, in-flight webhook attempts finish and are recorded, unstarted claims and
 * leases are given back. Settles when all of that is done; a no-op where the engine never ran.
 */
export async function stopBackgroundJobs(): Promise<void> {
  await holder.stop?.();
}
