import { z } from "zod";
import { eventTypes } from "../events/record-event";
import { httpUrlField, text } from "../validation/fields";
import { webhookUrlProblem } from "./url-guard";

export const webhookUrlField = httpUrlField.superRefine((url, context) => {
  const problem = webhookUrlProblem(url);
  if (problem) context.addIssue({ code: "custom", message: problem });
});

const adapter = z.enum(["NONE", "STRIPE"], { error: "must be NONE or STRIPE" });

/** An endpoint: name, url, adapter, enabled (docs/webhooks.md, "Managing endpoints"). */
export const createWebhookEndpointSchema = z
  .strictObject({
    name: text(255),
    url: webhookUrlField,
    adapter: adapter.default("NONE"),
    enabled: z.boolean({ error: "must be true or false" }).default(true),
  })
  .meta({ id: "CreateWebhookEndpoint" });

export const updateWebhookEndpointSchema = z
  .strictObject({
    name: text(255).optional(),
    url: webhookUrlField.optional(),
    adapter: adapter.optional(),
    enabled: z.boolean({ error: "must be true or false" }).optional(),
  })
  .meta({ id: "UpdateWebhookEndpoint" });

export const redeliverSchema = z
  .strictObject({ eventId: z.string().min(1).max(64) })
  .meta({ id: "Redeliver" });

/** POST …/{id}/test: which event to send (the body is optional). */
export const sendTestEventSchema = z
  .strictObject({
    type: z
      .enum(eventTypes, { error: `must be one of ${eventTypes.join(", ")}` })
      .default("payment.confirmed"),
  })
  .meta({ id: "SendTestEvent" });

export type CreateWebhookEndpointInput = z.output<typeof createWebhookEndpointSchema>;
export type UpdateWebhookEndpointInput = z.output<typeof updateWebhookEndpointSchema>;
