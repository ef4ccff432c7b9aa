import type { Command } from "commander";
import type { Json } from "../cli/arguments";
import { contractCommand } from "../cli/define-command";
import { line, pageLines } from "../cli/text-lines";
import { cancelSubscription, listSubscriptions, retrieveSubscription } from "../contracts";

/** Subscriptions: listing, one with its invoices, and cancelling. */
export function registerSubscriptionCommands(program: Command) {
  contractCommand(program, listSubscriptions, { lines: (page) => pageLines(page, subscriptionLine) });
  contractCommand(program, retrieveSubscription, { lines: subscriptionLines });
  contractCommand(program, cancelSubscription, { lines: subscriptionLines });
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
