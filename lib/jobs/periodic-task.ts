import type { Db } from "../db/client";
import { randomBase62 } from "../ids";
import { log } from "../log";

// The in-process engine runs each periodic task on a timer. With several app instances on one
// database, a lease row per task lets one instance run it at a time, without holding a
// transaction open while it works. Tasks must still claim rows themselves (FOR UPDATE SKIP
// LOCKED) and be idempotent: a lease can lapse while a slow pass is still running.

export type PeriodicTask = {
  name: string;
  intervalMs: number;
  /** One pass: do what is due now and return; the runner calls it again after intervalMs. */
  run: (database: Db) => Promise<unknown>;
  /** How long a lease lasts; a pass should finish well within it. Default 60 s. */
  leaseMs?: number;
  /** Run on every instance at once, without a lease: for tasks that claim their rows themselves. */
  everyInstance?: boolean;
  /**
   * Subscribes to signals that work is due now, calling `wake` on each; the runner then starts a
   * pass at once instead of waiting out the interval. Returns a function that unsubscribes.
   */
  wakeOn?: (wake: () => void) => () => void;
};

/** This process's name in leases. */
export const instanceId = `inst_${randomBase62(12)}`;

async function acquireLease(database: Db, task: PeriodicTask, owner: string): Promise<boolean> {
  const leaseMs = task.leaseMs ?? 60_000;
  const rows = await database.$queryRaw<{ owner: string }[]>`
    INSERT INTO "JobLease" ("name", "owner", "expiresAt")
    VALUES (${task.name}, ${owner}, now() + ${leaseMs} * interval '1 millisecond')
    ON CONFLICT ("name") DO UPDATE SET "owner" = EXCLUDED."owner", "expiresAt" = EXCLUDED."expiresAt"
    WHERE "JobLease"."expiresAt" < now() OR "JobLease"."owner" = EXCLUDED."owner"
    RETURNING "owner"`;
  return rows.length === 1;
}

/** Runs one pass of the task unless another instance holds its lease. Returns whether it ran. */
export async function runTaskOnce(database: Db, task: PeriodicTask, owner = instanceId): Promise<boolean> {
  if (!task.everyInstance && !(await acquireLease(database, task, owner))) return false;
  await task.run(database);
  return true;
}

/** Starts the timer loop of a task; returns a function that stops it. */
export function startPeriodicTask(database: Db, task: PeriodicTask): () => void {
  let stopped = false;
  let running = false;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  const tick = async () => {
    running = true;
    do {
      again = false;
      try {
        await runTaskOnce(database, task);
      } catch (error) {
        log.error({ task: task.name, err: error }, "periodic task failed");
      }
    } while (again && !stopped);
    running = false;
    if (!stopped) timer = setTimeout(tick, task.intervalMs);
  };
  // Woken while a pass runs, the task runs once more right after it: that pass may have missed it.
  const wake = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    clearTimeout(timer);
    void tick();
  };
  const stopWaking = task.wakeOn?.(wake) ?? (() => {});
  timer = setTimeout(tick, 0);
  return () => {
    stopped = true;
    clearTimeout(timer);
    stopWaking();
  };
}
