import type { Db } from "../db/client";
import { randomBase62 } from "../ids";
import { log } from "../log";
import { metrics } from "../metrics/metrics";
import { inJobSpan } from "../telemetry/spans";
import { passEnded, passStarted, trackTask } from "./job-heartbeats";

// The in-process engine runs each periodic task on a timer. With several app instances on one
// database, a lease row per task lets one instance run it at a time, without holding a
// transaction open while it works. The runner renews the lease while a pass runs, so a long pass
// (a chain scan catching up) keeps it; if a renewal finds the lease taken (this process stalled
// past it), the pass's signal aborts and the task stops at its next checkpoint. Tasks must still
// claim rows themselves (FOR UPDATE SKIP LOCKED) and be idempotent.

export type TaskContext = {
  /** Aborted when the runner stops, or the lease was lost: stop before the next write. */
  signal: AbortSignal;
};

export type PeriodicTask = {
  name: string;
  /** In process: the pause between passes. */
  intervalMs: number;
  /** Under Inngest: the cron schedule of its function (inngest/functions.ts). */
  cron: string;
  /** One pass: do what is due now and return; the runner calls it again after intervalMs. */
  run: (database: Db, context: TaskContext) => Promise<unknown>;
  /** How long a lease lasts without renewal; renewed every third of it while a pass runs. Default 60 s. */
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

/** Takes the task's lease, or extends it if this owner holds it; false while another holds it. */
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

/**
 * Extends the lease this owner holds; false once it holds it no more (given up, or taken by
 * another after it lapsed). An update, never an insert: a renewal still on its way when the pass
 * gives the lease up must not take it again for an owner that is stopping.
 */
async function renewLease(database: Db, task: PeriodicTask, owner: string): Promise<boolean> {
  const renewed = await database.$executeRaw`
    UPDATE "JobLease" SET "expiresAt" = now() + ${task.leaseMs ?? 60_000} * interval '1 millisecond'
    WHERE "name" = ${task.name} AND "owner" = ${owner}`;
  return renewed === 1;
}

/** Gives the lease up, so another instance takes over at once rather than when it lapses. */
async function releaseLease(database: Db, task: PeriodicTask, owner: string) {
  // Not fatal: the lease lapses by itself within leaseMs.
  await database.jobLease
    .deleteMany({ where: { name: task.name, owner } })
    .catch((error) => log.warn({ task: task.name, err: error }, "lease release failed"));
}

/**
 * Runs one pass of the task unless another instance holds its lease. Returns whether it ran.
 * `signal` ends the pass from outside (the runner stopping, an engine's time budget).
 */
export async function runTaskOnce(
  database: Db,
  task: PeriodicTask,
  owner = instanceId,
  signal?: AbortSignal,
): Promise<boolean> {
  if (task.everyInstance) {
    await inJobSpan(task.name, () => task.run(database, { signal: signal ?? new AbortController().signal }));
    return true;
  }
  if (!(await acquireLease(database, task, owner))) return false;
  const controller = new AbortController();
  const stop = () => controller.abort(signal?.reason);
  signal?.addEventListener("abort", stop, { once: true });
  if (signal?.aborted) stop();
  const renewal = setInterval(
    () => {
      renewLease(database, task, owner).then(
        (held) => {
          if (!held) controller.abort(new Error(`lease of ${task.name} lost to another instance`));
        },
        (error) => log.warn({ task: task.name, err: error }, "lease renewal failed"),
      );
    },
    (task.leaseMs ?? 60_000) / 3,
  );
  try {
    await inJobSpan(task.name, () => task.run(database, { signal: controller.signal }));
  } finally {
    clearInterval(renewal);
    signal?.removeEventListener("abort", stop);
  }
  if (controller.signal.aborted) await releaseLease(database, task, owner);
  return true;
}

/**
 * Starts the timer loop of a task; returns a function that stops it: no new pass starts, running
 * passes are aborted (they release their claims), and once they end the lease is given back.
 */
export function startPeriodicTask(database: Db, task: PeriodicTask): () => Promise<void> {
  const maxPasses = task.maxConcurrentPasses ?? 1;
  const stopping = new AbortController();
  let inFlight = 0;
  let settle: (() => void) | undefined;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  const pass = async () => {
    inFlight += 1;
    passStarted(task.name);
    do {
      again = false;
      try {
        const ran = await runTaskOnce(database, task, instanceId, stopping.signal);
        metrics().jobRuns.inc({ task: task.name, outcome: ran ? "ok" : "skipped" });
      } catch (error) {
        if (stopping.signal.aborted) continue;
        metrics().jobRuns.inc({ task: task.name, outcome: "error" });
        log.error({ task: task.name, err: error }, "periodic task failed");
      }
    } while (again && !stopping.signal.aborted);
    passEnded(task.name);
    inFlight -= 1;
    if (inFlight === 0) settle?.();
    if (!stopping.signal.aborted && inFlight === 0) timer = setTimeout(pass, task.intervalMs);
  };
  // Woken with every pass slot busy, the task runs once more right after one: they may have missed it.
  const wake = () => {
    if (stopping.signal.aborted) return;
    if (inFlight >= maxPasses) {
      again = true;
      return;
    }
    clearTimeout(timer);
    void pass();
  };
  const stopWaking = task.wakeOn?.(wake) ?? (() => {});
  trackTask(task.name, task.intervalMs);
  timer = setTimeout(pass, 0);
  return async () => {
    trackTask(task.name, null);
    stopping.abort(new Error("stopped"));
    clearTimeout(timer);
    stopWaking();
    if (inFlight > 0)
      await new Promise<void>((resolve) => {
        settle = resolve;
      });
    // The lease outlives a pass that ended normally; kept, it would bar a restarted instance (a new
    // owner) from the task until it lapsed, up to leaseMs.
    if (!task.everyInstance) await releaseLease(database, task, instanceId);
  };
}
