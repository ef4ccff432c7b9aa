import {
  confirmDestructiveCall,
  listNote,
  type ToolInput,
  type ToolName,
  type ToolResult,
  toolResult,
} from "crypto-checkout-agent/catalog";
import type { Decision } from "../authority/authorize";
import { parseCreateCheckoutSession } from "../checkout/checkout-session-schemas";
import { createCheckoutSession } from "../checkout/create-checkout-session";
import { getCheckoutSession } from "../checkout/get-checkout-session";
import { serializeCheckoutSessionDetail } from "../checkout/serialize-checkout-session";
import type { AlongsideWork, Db } from "../db/client";
import { invalidRequest } from "../errors";
import { hashRequest } from "../idempotency/hash-request";
import { parseIdempotencyKey } from "../idempotency/parse-idempotency-key";
import type { MerchantCaller } from "../merchant-auth/authenticate-merchant";
import { getOrganization } from "../organizations/get-organization";
import { updateOrganizationSchema } from "../organizations/organization-schemas";
import { serializeOrganization } from "../organizations/serialize-organization";
import { updateOrganization } from "../organizations/update-organization";
import { createPaylink } from "../paylinks/create-paylink";
import { disablePaylink } from "../paylinks/disable-paylink";
import { editPaylink } from "../paylinks/edit-paylink";
import { getPaylink } from "../paylinks/get-paylink";
import { listPaylinks } from "../paylinks/list-paylinks";
import { createPaylinkSchema, disablePaylinkSchema, editPaylinkSchema } from "../paylinks/paylink-schemas";
import { serializePaylink } from "../paylinks/serialize-paylink";
import { listTransactions } from "../payments/list-transactions";
import { serializeInvoice } from "../payments/serialize-invoice";
import { settlementRequester } from "../settlement/settlement-requester";
import { updateOrganizationAndWallets } from "../settlement/update-organization-and-wallets";
import { cancelSubscription } from "../subscriptions/cancel-subscription";
import { getSubscription } from "../subscriptions/get-subscription";
import { listSubscriptions } from "../subscriptions/list-subscriptions";
import { serializeSubscription, serializeSubscriptionDetail } from "../subscriptions/serialize-subscription";
import {
  cancelSubscriptionSchema,
  listSubscriptionsQuery,
  subscriptionIdParam,
} from "../subscriptions/subscription-schemas";
import { listSweeps, sweepListQuery } from "../sweeps/list-sweeps";
import { serializeSweep } from "../sweeps/serialize-sweep";
import { pagingQuery } from "../validation/fields";
import { listPage } from "../validation/list-page";
import { parseOrThrow } from "../validation/validation-error";
import { createWebhookEndpoint } from "../webhooks/create-webhook-endpoint";
import { getWebhookEndpoint } from "../webhooks/get-webhook-endpoint";
import { listEndpointDeliveries } from "../webhooks/list-endpoint-deliveries";
import { listEventDeliveries } from "../webhooks/list-event-deliveries";
import { listWebhookEndpoints } from "../webhooks/list-webhook-endpoints";
import { redeliverEvent } from "../webhooks/redeliver-event";
import { rotateWebhookSecret } from "../webhooks/rotate-webhook-secret";
import { sendTestEvent } from "../webhooks/send-test-event";
import {
  serializeDeliveryPage,
  serializeWebhookDelivery,
  serializeWebhookEndpoint,
} from "../webhooks/serialize-webhook";
import { updateWebhookEndpoint } from "../webhooks/update-webhook-endpoint";
import {
  createWebhookEndpointSchema,
  redeliverSchema,
  updateWebhookEndpointSchema,
} from "../webhooks/webhook-endpoint-schemas";
import { useConfirmationToken } from "./use-confirmation-token";

// The remote MCP server's tools: each parses its arguments with the REST route's schema, calls
// the same domain function for the caller's organization and returns the REST serializer's
// output, so a tool and its REST route agree on data and errors.

export type ToolContext = {
  db: Db;
  caller: MerchantCaller;
  requestId: string;
  /** The authority table's answer: `propose` where the tool routes money (lib/authority). */
  decision: Decision;
  /** Key of the confirmation tokens of destructive tools. */
  confirmationKey: Uint8Array;
};

type RemoteToolName = Exclude<
  ToolName,
  "service_agent_setup" | "service_agent_checkin" | "service_webhooks_verify_signature"
>;
type Handler<N extends ToolName> = (input: ToolInput<N>, context: ToolContext) => Promise<ToolResult>;

const pageOf = (input: { page?: number; rows?: number }) =>
  parseOrThrow(pagingQuery, { page: input.page, rows: input.rows });

/**
 * The confirmation binds the token to the organization, the credential that asked, the arguments
 * and the state the preview showed. Once it holds, `use` marks the token used inside the action's
 * transaction, so it confirms exactly one action.
 */
function confirm(
  context: ToolContext,
  tool: RemoteToolName,
  args: Record<string, unknown>,
  preview: string,
  state: unknown,
): { proceed: false; result: ToolResult } | { proceed: true; use: AlongsideWork } {
  const { caller } = context;
  const gate = confirmDestructiveCall(context.confirmationKey, {
    tool,
    subject: `${caller.organizationId}:${caller.credential.kind}:${caller.credential.id}`,
    args,
    preview,
    state,
    requestId: context.requestId,
  });
  if (!gate.proceed) return gate;
  return {
    proceed: true,
    use: (tx) => useConfirmationToken(tx, { token: gate.token, organizationId: caller.organizationId, tool }),
  };
}

export const toolHandlers: { [N in RemoteToolName]: Handler<N> } = {
  service_auth_status: async (_input, { db, caller }) => {
    const organization = await getOrganization(db, caller.organizationId);
    return toolResult({
      object: "auth_status",
      organization: { id: organization.id, name: organization.name },
      credential: caller.credential,
      access: caller.access,
    });
  },

  service_agent_register: async () => {
    throw invalidRequest(
      "already_connected",
      "This connection is already signed in to an account, so there is nothing to register. service_agent_register is for new users without an account (through the local agent kit: `npx crypto-checkout-agent auth:agent-register`).",
    );
  },

  service_checkout_sessions_create: async ({ idempotencyKey, ...body }, { db, caller }) => {
    const request = parseCreateCheckoutSession(body);
    const key = parseIdempotencyKey(idempotencyKey, { required: true });
    const { organizationId } = caller;
    const result = await createCheckoutSession(db, {
      organizationId,
      request,
      idempotency: key ? { organizationId, key, requestHash: hashRequest(body) } : null,
    });
    return toolResult(
      result.body as Record<string, unknown>,
      result.replayed
        ? "Replayed: the session created by the first call with this idempotencyKey."
        : undefined,
    );
  },

  service_checkout_sessions_get: async ({ id }, { db, caller }) =>
    toolResult(serializeCheckoutSessionDetail(await getCheckoutSession(db, caller.organizationId, id))),

  service_paylinks_create: async (input, { db, caller }) =>
    toolResult(
      serializePaylink(
        await createPaylink(db, caller.organizationId, parseOrThrow(createPaylinkSchema, input)),
      ),
    ),

  service_paylinks_list: async (input, { db, caller }) => {
    const paging = pageOf(input);
    const { paylinks, total } = await listPaylinks(db, caller.organizationId, paging);
    const page = listPage(paylinks.map(serializePaylink), paging, total);
    return toolResult(page, listNote(page));
  },

  service_paylinks_get: async ({ id }, { db, caller }) =>
    toolResult(serializePaylink(await getPaylink(db, caller.organizationId, id))),

  service_paylinks_edit: async (input, { db, caller }) =>
    toolResult(
      serializePaylink(await editPaylink(db, caller.organizationId, parseOrThrow(editPaylinkSchema, input))),
    ),

  service_paylinks_disable: async (input, context) => {
    const { db, caller } = context;
    const request = parseOrThrow(disablePaylinkSchema, { id: input.id, confirm: true });
    const paylink = serializePaylink(await getPaylink(db, caller.organizationId, request.id));
    const gate = confirm(
      context,
      "service_paylinks_disable",
      input,
      `Disable paylink "${paylink.name}" (${paylink.amount} ${paylink.currency}, ${paylink.url})? Buyers opening the link will get "not found" and no new payments can start through it.`,
      paylink,
    );
    if (!gate.proceed) return gate.result;
    return toolResult(serializePaylink(await disablePaylink(db, caller.organizationId, request, gate.use)));
  },

  service_payments_status: async ({ checkoutSessionId }, { db, caller }) => {
    const session = serializeCheckoutSessionDetail(
      await getCheckoutSession(db, caller.organizationId, checkoutSessionId),
    );
    return toolResult({
      object: "payment_status",
      checkoutSessionId: session.id,
      sessionStatus: session.status,
      paid: session.payment?.status === "CONFIRMED",
      payment: session.payment,
    });
  },

  service_transactions_list: async (input, { db, caller }) => {
    const paging = pageOf(input);
    const { invoices, total } = await listTransactions(db, caller.organizationId, paging);
    const page = listPage(invoices.map(serializeInvoice), paging, total);
    return toolResult(page, listNote(page));
  },

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
    const gate = confirm(
      context,
      "service_subscriptions_cancel",
      input,
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

  service_sweeps_list: async (input, { db, caller }) => {
    const query = parseOrThrow(sweepListQuery, input);
    const { sweeps, total } = await listSweeps(db, caller.organizationId, query);
    const page = listPage(sweeps.map(serializeSweep), query, total);
    return toolResult(page, listNote(page));
  },

  service_organization_get: async (_input, { db, caller }) =>
    toolResult(serializeOrganization(await getOrganization(db, caller.organizationId))),

  service_organization_update: async (input, { db, caller }) =>
    toolResult(
      serializeOrganization(
        await updateOrganization(db, caller.organizationId, parseOrThrow(updateOrganizationSchema, input)),
      ),
    ),

  service_settlement_configure: async (input, context) => {
    const { db, caller } = context;
    // Checked before asking, so the user confirms only addresses that will be accepted.
    const update = parseOrThrow(updateOrganizationSchema, { settlementWallets: input.settlementWallets });
    const current = serializeOrganization(await getOrganization(db, caller.organizationId));
    const listWallets = (wallets: { network: string; address: string }[]) =>
      wallets.length ? wallets.map((wallet) => `${wallet.network} ${wallet.address}`).join(", ") : "none";
    const gate = confirm(
      context,
      "service_settlement_configure",
      input,
      `Replace the settlement wallets of "${current.name}": now ${listWallets(current.settlementWallets)}; after: ${listWallets(update.settlementWallets ?? [])}. ${
        context.decision === "propose"
          ? "This connection only proposes it: every owner is emailed and it takes effect only if an owner confirms it in the dashboard."
          : "Every owner is emailed; a changed wallet takes effect after the settlement change delay (a network's first wallet at once). Received payments will then be swept to the new addresses; a wrong address loses the money."
      }`,
      { settlementWallets: current.settlementWallets, pending: current.pendingSettlementWallets },
    );
    if (!gate.proceed) return gate.result;
    const organization = serializeOrganization(
      await updateOrganizationAndWallets(
        db,
        caller.organizationId,
        update,
        () => settlementRequester(caller),
        gate.use,
      ),
    );
    return toolResult(
      organization,
      context.decision === "propose"
        ? "Proposed, not applied: every owner was emailed a link to confirm or reject it in the dashboard (pendingSettlementWallets). Sweeps go on to the wallets in settlementWallets."
        : undefined,
    );
  },

  service_webhooks_create: async (input, { db, caller }) => {
    const { endpoint, signingSecret } = await createWebhookEndpoint(
      db,
      caller.organizationId,
      parseOrThrow(createWebhookEndpointSchema, input),
    );
    return toolResult(
      { ...serializeWebhookEndpoint(endpoint), signingSecret },
      "The signingSecret is shown only now: store it where the receiving server reads it (e.g. SERVICE_WEBHOOK_SECRET), then call service_webhooks_send_test.",
    );
  },

  service_webhooks_list: async (_input, { db, caller }) =>
    toolResult({
      object: "list",
      data: (await listWebhookEndpoints(db, caller.organizationId)).map(serializeWebhookEndpoint),
    }),

  service_webhooks_update: async ({ id, ...changes }, { db, caller }) =>
    toolResult(
      serializeWebhookEndpoint(
        await updateWebhookEndpoint(
          db,
          caller.organizationId,
          id,
          parseOrThrow(updateWebhookEndpointSchema, changes),
        ),
      ),
    ),

  service_webhooks_rotate_secret: async (input, context) => {
    const { db, caller } = context;
    const endpoint = await getWebhookEndpoint(db, caller.organizationId, input.id);
    const gate = confirm(
      context,
      "service_webhooks_rotate_secret",
      input,
      `Rotate the signing secret of webhook endpoint "${endpoint.name}" (${endpoint.url})? A new secret is returned once; the current one keeps signing alongside it for 24 hours, after which a receiver still using it rejects deliveries.`,
      // A rotation since the preview changes what the user agreed to replace.
      { url: endpoint.url, updatedAt: endpoint.updatedAt.toISOString() },
    );
    if (!gate.proceed) return gate.result;
    const rotated = await rotateWebhookSecret(db, caller.organizationId, input.id, { alongside: gate.use });
    return toolResult({
      ...serializeWebhookEndpoint(rotated.endpoint),
      signingSecret: rotated.signingSecret,
      previousSecretExpiresAt: rotated.endpoint.previousSecretExpiresAt?.toISOString() ?? null,
    });
  },

  service_webhooks_send_test: async ({ id }, { db, caller }) => {
    const event = await sendTestEvent(db, caller.organizationId, id);
    return toolResult({ eventId: event.id, type: event.type, livemode: event.livemode });
  },

  service_webhooks_list_deliveries: async (input, { db, caller }) => {
    const paging = pageOf(input);
    if ((input.endpointId === undefined) === (input.eventId === undefined)) {
      throw invalidRequest(
        input.endpointId === undefined ? "parameter_missing" : "parameter_invalid",
        "Send exactly one of endpointId and eventId.",
        "endpointId",
      );
    }
    const deliveries = input.endpointId
      ? await listEndpointDeliveries(db, caller.organizationId, input.endpointId, paging)
      : await listEventDeliveries(db, caller.organizationId, input.eventId as string, paging);
    const page = serializeDeliveryPage(deliveries, paging);
    return toolResult(page, listNote(page));
  },

  service_webhooks_redeliver: async ({ endpointId, eventId }, { db, caller }) => {
    const request = parseOrThrow(redeliverSchema, { eventId });
    return toolResult(
      serializeWebhookDelivery(await redeliverEvent(db, caller.organizationId, endpointId, request.eventId)),
    );
  },
};
