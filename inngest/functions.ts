import { purgeAgentSetups } from "@/lib/agent-access/purge-agent-setups";
import { expireCheckoutSessions } from "@/lib/checkout/expire-checkout-sessions";
import { db } from "@/lib/db/client";
import { purgeIdempotencyKeys } from "@/lib/idempotency/purge-idempotency-keys";
import { scanNetworksTask } from "@/lib/jobs/background-tasks";
import { deliveryDueEvent, inngest } from "@/lib/jobs/inngest-client";
import { runTaskOnce } from "@/lib/jobs/periodic-task";
import { purgeOAuthRecords } from "@/lib/oauth/purge-oauth-records";
import { markOverdueInvoices } from "@/lib/payments/mark-overdue-invoices";
import { reconcileConfiguredNetworks } from "@/lib/sweeps/reconcile-deposit-balances";
import { attemptDueDelivery } from "@/lib/webhooks/attempt-due-delivery";
import { deliverDueWebhooks } from "@/lib/webhooks/deliver-due-webhooks";

// Thin wrappers over the domain functions that the in-process engine (lib/jobs) runs too. With
// SERVICE_JOB_ENGINE=inngest, an Inngest server calls these through /api/inngest instead.

/** The outbox sweep: every due delivery, every minute (claims keep instances from doubling up). */
export const deliverDueWebhooksCron = inngest.createFunction(
  { id: "deliver-due-webhooks", triggers: [{ cron: "* * * * *" }] },
  async ({ step }) => step.run("deliver", () => deliverDueWebhooks(db())),
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

export const expireCheckoutSessionsCron = inngest.createFunction(
  { id: "expire-checkout-sessions", triggers: [{ cron: "* * * * *" }] },
  async ({ step }) => step.run("expire", () => expireCheckoutSessions(db())),
);

/** How long one cron run follows new heads: most of the minute, so the runs follow each other. */
export const scanNetworksBudgetMs = 55_000;

/**
 * The chain watcher, as the in-process engine runs it (the same task and lease, so the two engines
 * never scan at once), for most of a minute per run; singleton, so runs never overlap.
 */
export const scanNetworksCron = inngest.createFunction(
  { id: "scan-networks", singleton: { mode: "skip" }, triggers: [{ cron: "* * * * *" }] },
  async ({ step }) =>
    step.run("watch", () =>
      runTaskOnce(db(), scanNetworksTask, undefined, AbortSignal.timeout(scanNetworksBudgetMs)),
    ),
);

export const markOverdueInvoicesCron = inngest.createFunction(
  { id: "mark-overdue-invoices", triggers: [{ cron: "* * * * *" }] },
  async ({ step }) => step.run("mark-overdue", () => markOverdueInvoices(db())),
);

export const purgeIdempotencyKeysCron = inngest.createFunction(
  { id: "purge-idempotency-keys", triggers: [{ cron: "17 * * * *" }] },
  async ({ step }) => step.run("purge", () => purgeIdempotencyKeys(db())),
);

export const purgeOAuthRecordsCron = inngest.createFunction(
  { id: "purge-oauth-records", triggers: [{ cron: "23 * * * *" }] },
  async ({ step }) => step.run("purge", () => purgeOAuthRecords(db())),
);

export const purgeAgentSetupsCron = inngest.createFunction(
  { id: "purge-agent-setups", triggers: [{ cron: "29 * * * *" }] },
  async ({ step }) => step.run("purge", () => purgeAgentSetups(db())),
);

/** Daily: deposit addresses' on-chain balances against the ledger (differences are logged). */
export const reconcileDepositBalancesCron = inngest.createFunction(
  { id: "reconcile-deposit-balances", triggers: [{ cron: "17 3 * * *" }] },
  async ({ step }) => step.run("reconcile", async () => (await reconcileConfiguredNetworks(db())).length),
);

export const functions = [
  deliverDueWebhooksCron,
  deliverWebhook,
  expireCheckoutSessionsCron,
  scanNetworksCron,
  markOverdueInvoicesCron,
  purgeIdempotencyKeysCron,
  purgeOAuthRecordsCron,
  purgeAgentSetupsCron,
  reconcileDepositBalancesCron,
];
