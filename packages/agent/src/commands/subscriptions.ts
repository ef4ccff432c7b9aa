import type { Command } from "commander";
import { type Json, wholeNumber } from "../cli/arguments";
import { commandDefiner, run } from "../cli/define-command";
import { line, pageLines } from "../cli/text-lines";
import { usageError } from "../http/errors";
import * as api from "../operations/merchant-api";

/** Subscriptions: listing, one with its invoices, and cancelling. */
export function registerSubscriptionCommands(program: Command) {
  const define = commandDefiner(program);

  define(
    "subscriptions:list",
    "List subscriptions, newest first; filter by status or customer.",
    "crypto-checkout subscriptions:list --status PAST_DUE",
  )
    .option("--status <status>", "ACTIVE, PAST_DUE or CANCELLED")
    .option("--customer <customer>", "customer email or clientReferenceId")
    .option("--page <page>", "page number, from 1", wholeNumber(1_000_000))
    .option("--rows <rows>", "rows per page, 1 to 100", wholeNumber(100))
    .action(
      run<{ format: "text" | "json"; status?: string; customer?: string; page?: number; rows?: number }>(
        async (options, output, kit) => {
          const page = await api.listSubscriptions(kit, {
            status: options.status,
            customer: options.customer,
            page: options.page,
            rows: options.rows,
          });
          return output.result(page, pageLines(page, subscriptionLine));
        },
      ),
    );

  define(
    "subscriptions:get",
    "Show one subscription with its invoices.",
    "crypto-checkout subscriptions:get --id sub_…",
  )
    .requiredOption("--id <id>", "the subscription id (sub_…)")
    .action(
      run<{ format: "text" | "json"; id: string }>(async (options, output, kit) => {
        const subscription = await api.getSubscription(kit, options.id);
        return output.result(subscription, subscriptionLines(subscription));
      }),
    );

  define(
    "subscriptions:cancel",
    "Cancel a subscription now, or at the end of the paid period with --at-period-end. Needs --confirm.",
    "crypto-checkout subscriptions:cancel --id sub_… --at-period-end --confirm",
  )
    .requiredOption("--id <id>", "the subscription id (sub_…)")
    .option("--at-period-end", "keep the paid period; cancel when it ends")
    .option("--confirm", "confirm that no further renewals are issued")
    .action(
      run<{ format: "text" | "json"; id: string; atPeriodEnd?: boolean; confirm?: boolean }>(
        async (options, output, kit) => {
          if (!options.confirm) {
            throw usageError(
              "confirmation_required",
              "Cancelling a subscription needs --confirm.",
              "confirm",
            );
          }
          const subscription = await api.cancelSubscription(kit, options.id, options.atPeriodEnd === true);
          return output.result(subscription, subscriptionLines(subscription));
        },
      ),
    );
}

function subscriptionLine(subscription: Json) {
  const every = `${subscription.intervalCount} ${subscription.interval}`;
  return `${subscription.id}  ${subscription.status}  ${subscription.amount} ${subscription.currency} / ${every}  until ${subscription.currentPeriodEnd}`;
}

function subscriptionLines(subscription: Json) {
  const invoices = (subscription.invoices as Json[] | undefined) ?? [];
  return [
    subscriptionLine(subscription),
    ...(subscription.cancelAtPeriodEnd ? [line("Cancels", `at ${subscription.currentPeriodEnd}`)] : []),
    ...(subscription.cancellationReason ? [line("Cancelled", subscription.cancellationReason)] : []),
    ...invoices.map(
      (invoice) =>
        `  period ${invoice.periodIndex}  ${invoice.periodStart} → ${invoice.periodEnd}  ${invoice.status}  ${invoice.url}`,
    ),
  ];
}
