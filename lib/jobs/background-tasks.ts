import { purgeAgentSetups } from "../agent-access/purge-agent-setups";
import { expireCheckoutSessions } from "../checkout/expire-checkout-sessions";
import { config } from "../config";
import { purgeIdempotencyKeys } from "../idempotency/purge-idempotency-keys";
import { purgeOAuthRecords } from "../oauth/purge-oauth-records";
import { markOverdueInvoices } from "../payments/mark-overdue-invoices";
import { watchConfiguredNetworks } from "../payments/watch-networks";
import { deliverDueWebhooks } from "../webhooks/deliver-due-webhooks";
import { onDeliveriesDue } from "./deliveries-due";
import type { PeriodicTask } from "./periodic-task";

/**
 * The chain watcher: one pass follows new heads until its signal aborts (the runner stopping, the
 * lease lost, or an engine's time budget), renewing its lease meanwhile. Another instance retries
 * every intervalMs and takes over within leaseMs of the holder dying.
 */
export const scanNetworksTask: PeriodicTask = {
  name: "scan-networks",
  intervalMs: 2_000,
  leaseMs: 15_000,
  run: (database, { signal }) => watchConfiguredNetworks(database, signal),
};

// Every periodic task of the in-process engine. Each is a thin wrapper over a domain function
// that the Inngest functions in inngest/ call too, so no logic lives only in one engine.
export const backgroundTasks: PeriodicTask[] = [
  // Woken when deliveries commit, here or in any instance, so an event's first attempt follows it
  // at once; polled as well, for retries coming due and as the fallback. Each pass claims its rows.
  {
    name: "deliver-webhooks",
    intervalMs: 200,
    everyInstance: true,
    run: (database, { signal }) => deliverDueWebhooks(database, { signal }),
    wakeOn: (wake) => onDeliveriesDue(wake, config().databaseUrl),
    maxConcurrentPasses: 4,
  },
  scanNetworksTask,
  { name: "mark-overdue-invoices", intervalMs: 15_000, run: (database) => markOverdueInvoices(database) },
  {
    name: "expire-checkout-sessions",
    intervalMs: 15_000,
    run: (database) => expireCheckoutSessions(database),
  },
  {
    name: "purge-idempotency-keys",
    intervalMs: 60 * 60_000,
    run: (database) => purgeIdempotencyKeys(database),
  },
  { name: "purge-oauth-records", intervalMs: 60 * 60_000, run: (database) => purgeOAuthRecords(database) },
  { name: "purge-agent-setups", intervalMs: 60 * 60_000, run: (database) => purgeAgentSetups(database) },
];
