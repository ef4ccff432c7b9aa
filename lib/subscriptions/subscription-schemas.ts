import { cancelSubscription, listSubscriptions, retrieveSubscription } from "crypto-checkout-agent/contracts";
import { z } from "zod";
import { recurringIntervals } from "../recurring/subscription-periods";
import { subscriptionStatuses } from "../recurring/subscription-state";
import { pagingQuery } from "../validation/fields";
import { refineContractInput } from "../validation/refine-contract-input";

/** A recurring price, on a paylink or a standalone session. */
export const recurringField = z
  .strictObject({
    interval: z.enum(recurringIntervals, { error: "must be day, week, month or year" }),
    intervalCount: z
      .number({ error: "must be a whole number from 1 to 12" })
      .int({ error: "must be a whole number from 1 to 12" })
      .min(1, { error: "must be a whole number from 1 to 12" })
      .max(12, { error: "must be a whole number from 1 to 12" })
      .default(1),
  })
  .meta({ id: "Recurring", description: "Bill again every intervalCount intervals" });

export const listSubscriptionsQuery = refineContractInput(listSubscriptions.input.query, {
  ...pagingQuery.shape,
  status: z.enum(subscriptionStatuses, { error: "must be ACTIVE, PAST_DUE or CANCELLED" }).optional(),
  customer: z
    .string({ error: "must be a string" })
    .trim()
    .min(1, { error: "must not be empty" })
    .max(254, { error: "must be at most 254 characters" })
    .optional()
    .meta({ description: "Customer email (exact, case-insensitive) or client reference id" }),
}).meta({ id: "ListSubscriptionsQuery" });
export type ListSubscriptionsQuery = z.output<typeof listSubscriptionsQuery>;

export const subscriptionIdParam = refineContractInput(
  [retrieveSubscription.input.params, cancelSubscription.input.params],
  { id: z.string().max(64) },
);

export const cancelSubscriptionSchema = refineContractInput(cancelSubscription.input.body, {
  atPeriodEnd: z
    .boolean({ error: "must be true or false" })
    .default(false)
    .meta({ description: "Keep the paid period and cancel when it ends, instead of now" }),
}).meta({ id: "CancelSubscription" });
export type CancelSubscriptionInput = z.output<typeof cancelSubscriptionSchema>;

/** The dashboard list's filters: the API's, with the search box's `q` as the customer. */
export const subscriptionListPageQuery = pagingQuery.extend({
  status: z.enum(subscriptionStatuses).optional(),
  q: z.string().trim().max(254).optional(),
});
