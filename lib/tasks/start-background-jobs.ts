import { config } from "../config";
import { db } from "../db/client";
import { type PeriodicTask, startPeriodicTask } from "../jobs/periodic-task";
import { log } from "../log";
import { backgroundTasks } from "./background-tasks";
import { sweepNetworksTask } from "./sweep-networks-task";

/** The sweeper runs here only when this process holds the mnemonic and is not told otherwise. */
function inProcessSweeper(): PeriodicTask[] {
  const { hdMnemonic, sweeper } = config();
  return hdMnemonic && sweeper.inProcess ? [sweepNetworksTask(hdMnemonic)] : [];
}

const holder = globalThis as typeof globalThis & { __cryptoCheckoutJobs?: () => void };

/** Starts the in-process engine once per process. */
export function startBackgroundJobs(): () => void {
  if (!holder.__cryptoCheckoutJobs) {
    const tasks = [...backgroundTasks, ...inProcessSweeper()];
    const stops = tasks.map((task) => startPeriodicTask(db(), task));
    log.info({ tasks: tasks.map((task) => task.name) }, "in-process jobs started");
    holder.__cryptoCheckoutJobs = () => {
      for (const stop of stops) stop();
      holder.__cryptoCheckoutJobs = undefined;
    };
  }
  return holder.__cryptoCheckoutJobs;
}
