import { db } from "../db/client";
import { startPeriodicTask } from "../jobs/periodic-task";
import { log } from "../log";
import { backgroundTasks } from "./background-tasks";

const holder = globalThis as typeof globalThis & { __cryptoCheckoutJobs?: () => void };

/** Starts the in-process engine once per process. */
export function startBackgroundJobs(): () => void {
  if (!holder.__cryptoCheckoutJobs) {
    const stops = backgroundTasks.map((task) => startPeriodicTask(db(), task));
    log.info({ tasks: backgroundTasks.map((task) => task.name) }, "in-process jobs started");
    holder.__cryptoCheckoutJobs = () => {
      for (const stop of stops) stop();
      holder.__cryptoCheckoutJobs = undefined;
    };
  }
  return holder.__cryptoCheckoutJobs;
}
