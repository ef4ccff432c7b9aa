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
  /**
   * Passes a wake-up may start while others still run (default 1). More than one keeps a slow
   * pass (a receiver taking its whole timeout) from holding up work that came due after it; only
   * for tasks whose passes claim their own rows.
   */
  maxConcurrentPasses?: number;
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
  const maxPasses = task.maxConcurrentPasses ?? 1;
  let stopped = false;
  let inFlight = 0;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  const pass = async () => {
    inFlight += 1;
    do {
      again = false;
      try {
        await runTaskOnce(database, task);
      } catch (error) {
        log.error({ task: task.name, err: error }, "periodic task failed");
      }
    } while (again && !stopped);
    inFlight -= 1;
    if (!stopped && inFlight === 0) timer = setTimeout(pass, task.intervalMs);
  };
  // Woken with every pass slot busy, the task runs once more right after one: they may have missed it.
  const wake = () => {
    if (stopped) return;
    if (inFlight >= maxPasses) {
      again = true;
      return;
    }
    clearTimeout(timer);
    void pass();
  };
  const stopWaking = task.wakeOn?.(wake) ?? (() => {});
  timer = setTimeout(pass, 0);
  return () => {
    stopped = true;
    clearTimeout(timer);
    stopWaking();
  };
}
