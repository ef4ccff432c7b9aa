import {
  createWebhookEndpoint,
  listEndpointDeliveries,
  listEventDeliveries,
  redeliverEvent,
  sendTestWebhook,
  updateWebhookEndpoint,
} from "crypto-checkout-agent/contracts";
import { z } from "zod";
import { eventTypes } from "../events/record-event";
import { httpUrlField, pagingQuery, text } from "../validation/fields";
import { refineContractInput } from "../validation/refine-contract-input";
import { webhookUrlProblem } from "./url-guard";

export const webhookUrlField = httpUrlField.superRefine((url, context) => {
  const problem = webhookUrlProblem(url);
  if (problem) context.addIssue({ code: "custom", message: problem });
});

const adapter = z.enum(["NONE", "STRIPE"], { error: "must be NONE or STRIPE" });

/** An endpoint: name, url, adapter, enabled (docs/webhooks.md, "Managing endpoints"). */
export const createWebhookEndpointSchema = refineContractInput(createWebhookEndpoint.input.body, {
  name: text(255),
  url: webhookUrlField,
  adapter: adapter.default("NONE"),
  enabled: z.boolean({ error: "must be true or false" }).default(true),
}).meta({ id: "CreateWebhookEndpoint" });

export const updateWebhookEndpointSchema = refineContractInput(updateWebhookEndpoint.input.body, {
  name: text(255).optional(),
  url: webhookUrlField.optional(),
  adapter: adapter.optional(),
  enabled: z.boolean({ error: "must be true or false" }).optional(),
}).meta({ id: "UpdateWebhookEndpoint" });

export const redeliverSchema = refineContractInput(redeliverEvent.input.body, {
  eventId: z.string().min(1).max(64),
}).meta({ id: "Redeliver" });

/** POST …/{id}/test: which event to send (the body is optional). */
export const sendTestEventSchema = refineContractInput(sendTestWebhook.input.body, {
  type: z.enum(eventTypes, { error: `must be one of ${eventTypes.join(", ")}` }).default("payment.confirmed"),
}).meta({ id: "SendTestEvent" });

/** GET …/webhook-endpoints/{id}/deliveries */
export const listEndpointDeliveriesQuery = refineContractInput(
  listEndpointDeliveries.input.query,
  pagingQuery.shape,
);

/** GET /api/private/events/{id}/deliveries */
export const listEventDeliveriesQuery = refineContractInput(
  listEventDeliveries.input.query,
  pagingQuery.shape,
);

export type CreateWebhookEndpointInput = z.output<typeof createWebhookEndpointSchema>;
export type UpdateWebhookEndpointInput = z.output<typeof updateWebhookEndpointSchema>;
