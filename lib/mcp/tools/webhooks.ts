import { listNote, toolResult } from "crypto-checkout-agent/catalog";
import { parseOrThrow } from "../../validation/validation-error";
import { createWebhookEndpoint } from "../../webhooks/create-webhook-endpoint";
import { getWebhookEndpoint } from "../../webhooks/get-webhook-endpoint";
import { listEndpointDeliveries } from "../../webhooks/list-endpoint-deliveries";
import { listEventDeliveries } from "../../webhooks/list-event-deliveries";
import { listWebhookEndpoints } from "../../webhooks/list-webhook-endpoints";
import { redeliverEvent } from "../../webhooks/redeliver-event";
import { rotateWebhookSecret } from "../../webhooks/rotate-webhook-secret";
import { sendTestEvent } from "../../webhooks/send-test-event";
import {
  serializeDeliveryPage,
  serializeWebhookDelivery,
  serializeWebhookEndpoint,
} from "../../webhooks/serialize-webhook";
import { updateWebhookEndpoint } from "../../webhooks/update-webhook-endpoint";
import {
  createWebhookEndpointSchema,
  redeliverSchema,
  sendTestEventSchema,
  updateWebhookEndpointSchema,
} from "../../webhooks/webhook-endpoint-schemas";
import { confirmToolCall } from "./confirm-tool-call";
import { pageOf, type ToolHandlers } from "./tool-context";

export const webhookTools: ToolHandlers<"service_webhooks_"> = {
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
    const gate = await confirmToolCall(
      context,
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

  service_webhooks_send_test: async ({ id, type }, { db, caller }) => {
    const request = parseOrThrow(sendTestEventSchema, type === undefined ? {} : { type });
    const event = await sendTestEvent(db, caller.organizationId, id, request.type);
    return toolResult({ eventId: event.id, type: event.type, livemode: event.livemode });
  },

  service_webhooks_list_deliveries: async (input, { db, caller }) => {
    const paging = pageOf(input);
    const page = serializeDeliveryPage(
      await listEndpointDeliveries(db, caller.organizationId, input.id, paging),
      paging,
    );
    return toolResult(page, listNote(page));
  },

  service_webhooks_list_event_deliveries: async (input, { db, caller }) => {
    const paging = pageOf(input);
    const page = serializeDeliveryPage(
      await listEventDeliveries(db, caller.organizationId, input.id, paging),
      paging,
    );
    return toolResult(page, listNote(page));
  },

  service_webhooks_redeliver: async ({ id, eventId }, { db, caller }) => {
    const request = parseOrThrow(redeliverSchema, { eventId });
    return toolResult(
      serializeWebhookDelivery(await redeliverEvent(db, caller.organizationId, id, request.eventId)),
    );
  },
};
