import { expect, vi } from "vitest";
import { db } from "../../lib/db/client";
import { runTaskOnce } from "../../lib/jobs/periodic-task";
import { backgroundTasks } from "../../lib/tasks/background-tasks";

/** One pass of a background task as both job engines run it (in process, and Inngest's cron), with the clock at `now`. */
export async function runBackgroundTaskAt(name: string, now: Date) {
  vi.setSystemTime(now);
  try {
    const task = backgroundTasks.find((candidate) => candidate.name === name);
    expect(task).toBeDefined();
    await runTaskOnce(db(), task as (typeof backgroundTasks)[number], "test", AbortSignal.timeout(30_000));
  } finally {
    vi.useRealTimers();
  }
}
