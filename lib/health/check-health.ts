import { readdir } from "node:fs/promises";
import path from "node:path";
import { config } from "../config";
import type { Db } from "../db/client";
import { jobHeartbeats, stalledTasks } from "../jobs/job-heartbeats";
import { measureWatchers, type WatcherProgress } from "../payments/measure-watchers";
import { getSweepStats } from "../sweeps/get-sweep-stats";
import { type DeliveryQueue, measureDeliveryQueue } from "../webhooks/measure-delivery-queue";

let expectedMigrations: Promise<string[]> | undefined;

function migrationsOnDisk() {
  expectedMigrations ??= readdir(path.join(process.cwd(), "prisma/migrations"), { withFileTypes: true }).then(
    (entries) =>
      entries
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
        .sort(),
  );
  return expectedMigrations;
}

type Check = "ok" | "failing";
type WatcherStatus = "ok" | "starting" | "unreachable" | "stalled";

export type Health = {
  status: "ok" | "degraded" | "failing";
  checks: {
    database: Check;
    migrations: Check;
    watchers: Check | "degraded";
    deliveries: Check;
    jobs: Check;
  };
  /** Only for callers with the metrics token. */
  details?: {
    pendingMigrations: string[];
    watchers: (WatcherProgress & { status: WatcherStatus })[];
    deliveries: DeliveryQueue;
    jobs: { engine: "in-process" | "inngest"; tasks: string[]; stalledTasks: string[] };
    /** Sweeps by network and status, and each gas wallet as the sweeper last reported it. */
    settlement: Awaited<ReturnType<typeof getSweepStats>>;
  };
};

const processStarted = Date.now();

/**
 * A network's watcher: unreachable once it has missed a few checks (its RPC is down or slow;
 * payments wait and are caught up when it answers again), stalled once it has not reached the
 * chain for longer than the threshold.
 */
function watcherStatus(
  progress: WatcherProgress,
  thresholds: { maxLagSeconds: number; unreachableSeconds: number },
  now: Date,
): WatcherStatus {
  if (progress.secondsSinceCheck === null) {
    // No scan yet: a fresh start has the threshold's time to make its first one.
    return now.getTime() - processStarted > thresholds.maxLagSeconds * 1000 ? "stalled" : "starting";
  }
  if (progress.secondsSinceCheck > thresholds.maxLagSeconds) return "stalled";
  return progress.secondsSinceCheck > thresholds.unreachableSeconds ? "unreachable" : "ok";
}

/** The in-process engine must be running here, every task's loop alive; Inngest runs elsewhere. */
function jobsHealth() {
  const engine = config().jobEngine;
  const tasks = [...jobHeartbeats().keys()];
  const stalled = stalledTasks();
  const ok = engine === "inngest" || (tasks.length > 0 && stalled.length === 0);
  return { ok, engine, tasks, stalledTasks: stalled };
}

/**
 * Whether this instance and the work behind it are healthy: the database answers and has every
 * migration of this build, each network's watcher reached its chain within the threshold, no due
 * webhook delivery waited longer than its threshold, and the job engine runs. Any failing check
 * makes the whole status failing (503 for an orchestrator); a watcher that has lately missed its
 * chain makes it degraded (still 200: the API works, payments are confirmed once it is back).
 * Details name the numbers.
 */
export async function checkHealth(database: Db, options: { details: boolean; now?: Date }): Promise<Health> {
  const now = options.now ?? new Date();
  const { maxWatcherLagSeconds, maxDeliveryAgeSeconds, chainUnreachableSeconds } = config().health;
  const jobs = jobsHealth();
  let applied: string[];
  try {
    const rows = await database.$queryRaw<{ migration_name: string }[]>`
      SELECT migration_name FROM _prisma_migrations
      WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`;
    applied = rows.map((row) => row.migration_name);
  } catch {
    const checks = {
      database: "failing",
      migrations: "failing",
      watchers: "failing",
      deliveries: "failing",
      jobs: jobs.ok ? "ok" : "failing",
    } as const;
    return { status: "failing", checks };
  }
  const pendingMigrations = (await migrationsOnDisk()).filter((name) => !applied.includes(name));
  const [watchers, deliveries] = await Promise.all([
    measureWatchers(database, now),
    measureDeliveryQueue(database, now),
  ]);
  const watcherDetails = watchers.map((progress) => ({
    ...progress,
    status: watcherStatus(
      progress,
      { maxLagSeconds: maxWatcherLagSeconds, unreachableSeconds: chainUnreachableSeconds },
      now,
    ),
  }));
  const watcherStatuses = watcherDetails.map((watcher) => watcher.status);
  const checks = {
    database: "ok",
    migrations: pendingMigrations.length === 0 ? "ok" : "failing",
    watchers: watcherStatuses.includes("stalled")
      ? "failing"
      : watcherStatuses.includes("unreachable")
        ? "degraded"
        : "ok",
    deliveries: deliveries.oldestDueSeconds <= maxDeliveryAgeSeconds ? "ok" : "failing",
    jobs: jobs.ok ? "ok" : "failing",
  } as const;
  const values: string[] = Object.values(checks);
  const status = values.includes("failing") ? "failing" : values.includes("degraded") ? "degraded" : "ok";
  if (!options.details) return { status, checks };
  return {
    status,
    checks,
    details: {
      pendingMigrations,
      watchers: watcherDetails,
      deliveries,
      jobs: { engine: jobs.engine, tasks: jobs.tasks, stalledTasks: jobs.stalledTasks },
      settlement: await getSweepStats(database),
    },
  };
}
