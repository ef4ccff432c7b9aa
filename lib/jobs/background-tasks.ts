import { expireCheckoutSessions } from "../checkout/expire-checkout-sessions";
import { config } from "../config";
import { purgeIdempotencyKeys } from "../idempotency/purge-idempotency-keys";
import { markOverdueInvoices } from "../payments/mark-overdue-invoices";
import { scanConfiguredNetworks } from "../payments/scan-configured-networks";
import { deliverDueWebhooks } from "../webhooks/deliver-due-webhooks";
import { onDeliveriesDue } from "./deliveries-due";
import type { PeriodicTask } from "./periodic-task";

// Every periodic task of the in-process engine. Each is a thin wrapper over a domain function
// that the Inngest functions in inngest/ call too, so no logic lives only in one engine.
export const backgroundTasks: PeriodicTask[] = [
  // Woken when deliveries commit, here or in any instance, so an event's first attempt follows it
  // at once; polled as well, for retries coming due and as the fallback. Each pass claims its rows.
  {
    name: "deliver-webhooks",
    intervalMs: 200,
    everyInstance: true,
    run: (database) => deliverDueWebhooks(database),
    wakeOn: (wake) => onDeliveriesDue(wake, config().databaseUrl),
    maxConcurrentPasses: 4,
  },
  { name: "scan-networks", intervalMs: 2_000, run: (database) => scanConfiguredNetworks(database) },
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
];
