import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { runTaskOnce, startPeriodicTask } from "./periodic-task";

function countingTask(name: string, leaseMs = 60_000) {
  const task = {
    name,
    intervalMs: 1000,
    cron: "* * * * *",
    leaseMs,
    runs: 0,
    run: async () => {
      task.runs += 1;
    },
  };
  return task;
}

describe("runTaskOnce", () => {
  it("lets one instance hold a task while its lease lasts", async () => {
    const task = countingTask("lease-probe");
    expect(await runTaskOnce(db(), task, "instance-a")).toBe(true);
    expect(await runTaskOnce(db(), task, "instance-b")).toBe(false);
    expect(await runTaskOnce(db(), task, "instance-a")).toBe(true);
    expect(task.runs).toBe(2);
  });

  it("hands a task to another instance once the lease has lapsed", async () => {
    const task = countingTask("lapse-probe", 50);
    expect(await runTaskOnce(db(), task, "instance-a")).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(await runTaskOnce(db(), task, "instance-b")).toBe(true);
    const lease = await db().jobLease.findUniqueOrThrow({ where: { name: "lapse-probe" } });
    expect(lease.owner).toBe("instance-b");
  });

  it("does not take back a lease given up while a renewal was on its way", async () => {
    // The pass gives its lease up (as a stop does) and runs on past a renewal: an upsert there
    // took the lease again for an owner that was going away, barring every other instance.
    const task = {
      ...countingTask("renewal-probe", 300),
      run: async () => {
        await db().jobLease.deleteMany({ where: { name: "renewal-probe" } });
        await new Promise((resolve) => setTimeout(resolve, 250));
      },
    };
    expect(await runTaskOnce(db(), task, "instance-a")).toBe(true);
    expect(await db().jobLease.findMany({ where: { name: "renewal-probe" } })).toEqual([]);
    expect(await runTaskOnce(db(), countingTask("renewal-probe"), "instance-b")).toBe(true);
  });

  it("keeps tasks independent of each other", async () => {
    expect(await runTaskOnce(db(), countingTask("task-one"), "instance-a")).toBe(true);
    expect(await runTaskOnce(db(), countingTask("task-two"), "instance-b")).toBe(true);
  });
});

describe("startPeriodicTask", () => {
  it("gives its lease back when stopped, so another instance takes the task at once", async () => {
    const task = countingTask("stop-probe");
    const stop = startPeriodicTask(db(), task);
    for (const deadline = Date.now() + 10_000; task.runs === 0 && Date.now() < deadline; )
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await runTaskOnce(db(), task, "instance-b")).toBe(false);
    await stop();
    expect(await runTaskOnce(db(), task, "instance-b")).toBe(true);
  });
});
