import { z } from "zod";
import { listOf, subscriptionDetailObject, subscriptionObject, subscriptionStatuses } from "../shapes";
import { paging, subscriptionId } from "./arguments";
import { defineContract, destructiveUpdate, read, toolOf } from "./contract";

const readRow = { row: "subscriptions.read", access: "read", role: "member" } as const;

export const listSubscriptions = defineContract({
  operationId: "listSubscriptions",
  method: "get",
  path: "/api/private/subscriptions",
  input: {
    query: z.object({
      status: z.enum(subscriptionStatuses).optional(),
      customer: z.string().max(254).optional().describe("Customer email (any case) or clientReferenceId"),
      ...paging,
    }),
  },
  result: listOf(subscriptionObject),
  authority: readRow,
  tool: {
    name: "service_subscriptions_list",
    title: "List subscriptions",
    description:
      "Lists this organization's subscriptions (started by a paid recurring paylink or session), newest first, a page at a time; filter by status (ACTIVE, PAST_DUE, CANCELLED) or customer (email or clientReferenceId). For one subscription's invoices use service_subscriptions_get.",
    annotations: read,
  },
  cli: {
    command: "subscriptions:list",
    description: "List subscriptions, newest first; filter by status or customer.",
    example: "crypto-checkout subscriptions:list --status PAST_DUE",
    describe: { status: "Only subscriptions in this status" },
  },
});

export const retrieveSubscription = defineContract({
  operationId: "retrieveSubscription",
  method: "get",
  path: "/api/private/subscriptions/{id}",
  input: { params: z.object({ id: subscriptionId }) },
  result: subscriptionDetailObject,
  authority: readRow,
  tool: {
    name: "service_subscriptions_get",
    title: "Get a subscription",
    description:
      "Reads one subscription with its current period and every invoice (one per period, with the hosted page the customer pays it on).",
    annotations: read,
  },
  cli: {
    command: "subscriptions:get",
    description: "Show one subscription with its invoices.",
    example: "crypto-checkout subscriptions:get --id sub_…",
  },
});

export const cancelSubscription = defineContract({
  operationId: "cancelSubscription",
  method: "post",
  path: "/api/private/subscriptions/{id}/cancel",
  input: {
    params: z.object({ id: subscriptionId }),
    body: z.object({ atPeriodEnd: z.boolean().optional().describe("Default false: cancel now") }),
  },
  result: subscriptionDetailObject,
  authority: { row: "subscriptions.cancel", access: "write", role: "owner" },
  tool: {
    name: "service_subscriptions_cancel",
    title: "Cancel a subscription",
    description:
      "Cancels a subscription now (atPeriodEnd false: no more renewals, subscription.cancelled is sent) or at the end of the paid period (atPeriodEnd true). Cannot be undone. Needs the user's confirmation: the first call returns a preview and a confirmation token (error code confirmation_required); ask the user, and only if they agree call again with the token.",
    annotations: destructiveUpdate,
    confirmation: true,
  },
  cli: {
    command: "subscriptions:cancel",
    description:
      "Cancel a subscription now, or at the end of the paid period with --at-period-end. Needs --confirm.",
    example: "crypto-checkout subscriptions:cancel --id sub_… --at-period-end --confirm",
    describe: { atPeriodEnd: "Keep the paid period; cancel when it ends" },
    confirm: "confirm that no further renewals are issued",
  },
});

export const subscriptionContracts = [listSubscriptions, retrieveSubscription, cancelSubscription];
export const subscriptionTools = [
  toolOf(listSubscriptions),
  toolOf(retrieveSubscription),
  toolOf(cancelSubscription),
] as const;
