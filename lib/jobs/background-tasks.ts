import { expireCheckoutSessions } from "../checkout/expire-checkout-sessions";
import { purgeIdempotencyKeys } from "../idempotency/purge-idempotency-keys";
import { purgeOAuthRecords } from "../oauth/purge-oauth-records";
import { markOverdueInvoices } from "../payments/mark-overdue-invoices";
import { scanConfiguredNetworks } from "../payments/scan-configured-networks";
import { deliverDueWebhooks } from "../webhooks/deliver-due-webhooks";
import type { PeriodicTask } from "./periodic-task";

// Every periodic task of the in-process engine. Each is a thin wrapper over a domain function
// that the Inngest functions in inngest/ call too, so no logic lives only in one engine.
export const backgroundTasks: PeriodicTask[] = [
  // Polled often so an event's first attempt follows it closely; each pass claims its own rows.
  {
    name: "deliver-webhooks",
    intervalMs: 200,
    everyInstance: true,
    run: (database) => deliverDueWebhooks(database),
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
  { name: "purge-oauth-records", intervalMs: 60 * 60_000, run: (database) => purgeOAuthRecords(database) },
];
