import { purgeAgentSetups } from "../agent-access/purge-agent-setups";
import { expireCheckoutSessions } from "../checkout/expire-checkout-sessions";
import { config } from "../config";
import { purgeIdempotencyKeys } from "../idempotency/purge-idempotency-keys";
import { onDeliveriesDue } from "../jobs/deliveries-due";
import type { PeriodicTask } from "../jobs/periodic-task";
import { purgeUsedConfirmations } from "../mcp/purge-used-confirmations";
import { purgeOAuthRecords } from "../oauth/purge-oauth-records";
import { deliverOutboundEmails } from "../outbox/deliver-outbound-emails";
import { markOverdueInvoices } from "../payments/mark-overdue-invoices";
import { watchConfiguredNetworks } from "../payments/watch-networks";
import { expireRefundClaims } from "../refunds/expire-refund-claims";
import { reportEmailComposers } from "../reports/attach-monthly-report";
import { sendMonthlyReports } from "../reports/send-monthly-reports";
import { processDueSubscriptions } from "../subscriptions/process-due-subscriptions";
import { reconcileConfiguredNetworks } from "../sweeps/reconcile-deposit-balances";
import { deliverDueWebhooks } from "../webhooks/deliver-due-webhooks";
import { resolveStuckX402Settlements } from "../x402/resolve-stuck-x402-settlements";

/**
 * The chain watcher: one pass follows new heads until its signal aborts (the runner stopping, the
 * lease lost, or an engine's time budget), renewing its lease meanwhile. Another instance retries
 * every intervalMs and takes over within leaseMs of the holder dying.
 */
export const scanNetworksTask: PeriodicTask = {
  name: "scan-networks",
  intervalMs: 2_000,
  cron: "* * * * *",
  leaseMs: 15_000,
  run: (database, { signal }) => watchConfiguredNetworks(database, signal),
};

// Every periodic task, the one list both engines run: the in-process engine every intervalMs,
// Inngest (inngest/functions.ts) on the cron schedule. Each is a thin wrapper over a domain function.
export const backgroundTasks: PeriodicTask[] = [
  // Woken when deliveries commit, here or in any instance, so an event's first attempt follows it
  // at once; polled as well, for retries coming due and as the fallback. Each pass claims its rows.
  {
    name: "deliver-webhooks",
    intervalMs: 200,
    // Under Inngest each delivery also has a durable run of its own; this is the safety net.
    cron: "* * * * *",
    everyInstance: true,
    run: (database, { signal }) => deliverDueWebhooks(database, { signal }),
    wakeOn: (wake) => onDeliveriesDue(wake, config().databaseUrl),
    maxConcurrentPasses: 4,
  },
  scanNetworksTask,
  {
    name: "mark-overdue-invoices",
    intervalMs: 15_000,
    cron: "* * * * *",
    run: (database) => markOverdueInvoices(database),
  },
  // Renewals, deadlines and grace ends; each pass claims its subscriptions, so every instance runs it.
  {
    name: "process-due-subscriptions",
    intervalMs: 15_000,
    cron: "* * * * *",
    everyInstance: true,
    run: (database) => processDueSubscriptions(database),
  },
  {
    name: "expire-checkout-sessions",
    intervalMs: 15_000,
    cron: "* * * * *",
    run: (database) => expireCheckoutSessions(database),
  },
  // Refund claim links past their expiry fail (the claim page also does it when opened).
  {
    name: "expire-refund-claims",
    intervalMs: 60_000,
    cron: "* * * * *",
    run: (database) => expireRefundClaims(database),
  },
  // x402 settlements a crash left SETTLING, decided from the chain.
  {
    name: "resolve-x402-settlements",
    intervalMs: 60_000,
    cron: "* * * * *",
    run: (database) => resolveStuckX402Settlements(database),
  },
  // The outbox's emails (owners' settlement announcements, buyers' receipts) that were not sent
  // right after their commit (a crash, a mail outage); each pass claims its rows, so every
  // instance runs it.
  {
    name: "deliver-outbound-emails",
    intervalMs: 30_000,
    cron: "* * * * *",
    everyInstance: true,
    run: (database) => deliverOutboundEmails(database, { composers: reportEmailComposers }),
  },
  // Hourly purges, at different minutes under Inngest so they don't all start at once.
  {
    name: "purge-idempotency-keys",
    intervalMs: 60 * 60_000,
    cron: "17 * * * *",
    run: (database) => purgeIdempotencyKeys(database),
  },
  {
    name: "purge-oauth-records",
    intervalMs: 60 * 60_000,
    cron: "23 * * * *",
    run: (database) => purgeOAuthRecords(database),
  },
  {
    name: "purge-agent-setups",
    intervalMs: 60 * 60_000,
    cron: "29 * * * *",
    run: (database) => purgeAgentSetups(database),
  },
  {
    name: "purge-used-confirmations",
    intervalMs: 60 * 60_000,
    cron: "41 * * * *",
    run: (database) => purgeUsedConfirmations(database),
  },
  // Last month's payments report to the owners who asked, on the 1st (and the days after, for a
  // service that was down then); the MonthlyReport row keeps it to once per organization and month.
  {
    name: "send-monthly-reports",
    intervalMs: 60 * 60_000,
    cron: "47 * * * *",
    run: (database) => sendMonthlyReports(database),
  },
  // Daily: deposit addresses' on-chain balances against the ledger (differences are logged).
  {
    name: "reconcile-deposit-balances",
    intervalMs: 24 * 60 * 60_000,
    cron: "17 3 * * *",
    leaseMs: 10 * 60_000,
    run: (database) => reconcileConfiguredNetworks(database),
  },
];
