import { db } from "@/lib/db/client";
import { deliveryDueEvent, inngest } from "@/lib/jobs/inngest-client";
import { runTaskOnce } from "@/lib/jobs/periodic-task";
import { backgroundTasks } from "@/lib/tasks/background-tasks";
import { attemptDueDelivery } from "@/lib/webhooks/attempt-due-delivery";

// Thin wrappers over the domain functions that the in-process engine (lib/jobs) runs too. With
// SERVICE_JOB_ENGINE=inngest, an Inngest server calls these through /api/inngest instead.

/** How long one cron run may work: most of the minute, so the chain watcher's runs follow each other. */
export const cronBudgetMs = 55_000;

/** The lease owner of every Inngest run: runs exclude the in-process engine, not each other (singleton does that). */
const leaseOwner = "inngest";

/**
 * Every periodic task of lib/tasks/background-tasks.ts, as a cron function that runs one pass the
 * way the in-process engine does, under the task's lease (so the two engines never run a task at
 * once); singleton, so runs never overlap. Keyed by task name.
 */
export const periodicFunctions = Object.fromEntries(
  backgroundTasks.map((task) => [
    task.name,
    inngest.createFunction(
      { id: task.name, singleton: { mode: "skip" }, triggers: [{ cron: task.cron }] },
      async ({ step }) =>
        step.run(task.name, () => runTaskOnce(db(), task, leaseOwner, AbortSignal.timeout(cronBudgetMs))),
    ),
  ]),
);

/** One delivery followed through its schedule, durably sleeping between attempts. */
export const deliverWebhook = inngest.createFunction(
  { id: "deliver-webhook", triggers: [{ event: deliveryDueEvent }] },
  async ({ event, step }) => {
    const deliveryId = (event.data as { deliveryId: string }).deliveryId;
    // Bounded: a delivery gives up after 72 hours, well within this many attempts.
    for (let attempt = 1; attempt <= 400; attempt++) {
      const progress = await step.run(`attempt-${attempt}`, () => attemptDueDelivery(db(), deliveryId));
      if (!progress?.nextAttemptAt) return progress?.status ?? "not-due";
      await step.sleepUntil(`wait-${attempt}`, progress.nextAttemptAt);
    }
    return "gave-up";
  },
);

export const functions = [...Object.values(periodicFunctions), deliverWebhook];
