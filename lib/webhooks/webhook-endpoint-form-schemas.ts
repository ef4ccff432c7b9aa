import { z } from "zod";
import {
  createWebhookEndpointSchema,
  redeliverSchema,
  sendTestEventSchema,
} from "./webhook-endpoint-schemas";

// The dashboard's forms post strings, where the API takes JSON booleans. These schemas change
// only how `enabled` is read and add the endpoint id; every other rule is the API schema's own.

/** "true" or "false", as a hidden field sends it. */
const formBoolean = z
  .enum(["true", "false"], { error: "must be true or false" })
  .transform((v) => v === "true");

/** A checkbox with value="true": checked sends "true", unchecked sends nothing. */
const checkbox = formBoolean.default(false);

const endpointId = z.string().min(1).max(64);

export const createWebhookEndpointFormSchema = createWebhookEndpointSchema.extend({ enabled: checkbox });

export const setWebhookEndpointEnabledFormSchema = z.strictObject({
  id: endpointId,
  enabled: formBoolean,
});

export const webhookEndpointIdFormSchema = z.strictObject({ id: endpointId });

export const sendTestEventFormSchema = sendTestEventSchema.extend({ id: endpointId });

export const redeliverFormSchema = redeliverSchema.extend({ id: endpointId });
