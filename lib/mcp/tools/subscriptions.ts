import { listNote, toolResult } from "crypto-checkout-agent/catalog";
import { cancelSubscription } from "../../subscriptions/cancel-subscription";
import { getSubscription } from "../../subscriptions/get-subscription";
import { listSubscriptions } from "../../subscriptions/list-subscriptions";
import {
  serializeSubscription,
  serializeSubscriptionDetail,
} from "../../subscriptions/serialize-subscription";
import {
  cancelSubscriptionSchema,
  listSubscriptionsQuery,
  subscriptionIdParam,
} from "../../subscriptions/subscription-schemas";
import { listPage } from "../../validation/list-page";
import { parseOrThrow } from "../../validation/validation-error";
import { confirmToolCall } from "./confirm-tool-call";
import type { ToolHandlers } from "./tool-context";

export const subscriptionTools: ToolHandlers<"service_subscriptions_"> = {
  service_subscriptions_list: async ({ status, customer, page, rows }, { db, caller }) => {
    const query = parseOrThrow(listSubscriptionsQuery, { status, customer, page, rows });
    const { subscriptions, total } = await listSubscriptions(db, caller.organizationId, query);
    const result = listPage(subscriptions.map(serializeSubscription), query, total);
    return toolResult(result, listNote(result));
  },

  service_subscriptions_get: async ({ id }, { db, caller }) =>
    toolResult(
      serializeSubscriptionDetail(
        await getSubscription(db, caller.organizationId, parseOrThrow(subscriptionIdParam, { id }).id),
      ),
    ),

  service_subscriptions_cancel: async (input, context) => {
    const { db, caller } = context;
    const { atPeriodEnd } = parseOrThrow(cancelSubscriptionSchema, { atPeriodEnd: input.atPeriodEnd });
    const subscription = serializeSubscription(await getSubscription(db, caller.organizationId, input.id));
    const who = subscription.customer.email ?? subscription.customer.clientReferenceId ?? "the customer";
    const gate = await confirmToolCall(
      context,
      `Cancel subscription ${subscription.id} of ${who} (${subscription.amount} ${subscription.currency} every ${subscription.intervalCount} ${subscription.interval})${atPeriodEnd ? ` at the end of the paid period (${subscription.currentPeriodEnd})` : " now"}? No further renewals are issued; this cannot be undone.`,
      { status: subscription.status, cancelAtPeriodEnd: subscription.cancelAtPeriodEnd },
    );
    if (!gate.proceed) return gate.result;
    return toolResult(
      serializeSubscriptionDetail(
        await cancelSubscription(
          db,
          caller.organizationId,
          { id: subscription.id, atPeriodEnd },
          { alongside: gate.use },
        ),
      ),
    );
  },
};
