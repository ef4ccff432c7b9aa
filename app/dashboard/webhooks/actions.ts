"use server";

import { redirect } from "next/navigation";
import { db } from "@/lib/db/client";
import { type ActionResult, memberAction } from "@/lib/http/dashboard-session";
import { createWebhookEndpoint } from "@/lib/webhooks/create-webhook-endpoint";
import { deleteWebhookEndpoint } from "@/lib/webhooks/delete-webhook-endpoint";
import { redeliverEvent } from "@/lib/webhooks/redeliver-event";
import { rotateWebhookSecret } from "@/lib/webhooks/rotate-webhook-secret";
import { sendTestEvent } from "@/lib/webhooks/send-test-event";
import { serializeWebhookEndpoint } from "@/lib/webhooks/serialize-webhook";
import { updateWebhookEndpoint } from "@/lib/webhooks/update-webhook-endpoint";
import {
  createWebhookEndpointFormSchema,
  redeliverFormSchema,
  sendTestEventFormSchema,
  setWebhookEndpointEnabledFormSchema,
  webhookEndpointIdFormSchema,
} from "@/lib/webhooks/webhook-endpoint-form-schemas";

// Where customer data goes is the owners' call (a removed member's endpoint would keep receiving
// it); test events and redeliveries go to endpoints the owners set up, so any member may send them.

export const createWebhookEndpointAction = memberAction(
  "webhooks.manage",
  createWebhookEndpointFormSchema,
  async (member, input) => {
    const { endpoint, signingSecret } = await createWebhookEndpoint(db(), member.organization.id, input);
    return { endpoint: serializeWebhookEndpoint(endpoint), signingSecret };
  },
);

export const setWebhookEndpointEnabledAction = memberAction(
  "webhooks.manage",
  setWebhookEndpointEnabledFormSchema,
  async (member, { id, enabled }) =>
    serializeWebhookEndpoint(await updateWebhookEndpoint(db(), member.organization.id, id, { enabled })),
);

export const rotateWebhookSecretAction = memberAction(
  "webhooks.manage",
  webhookEndpointIdFormSchema,
  async (member, { id }) => {
    const { endpoint, signingSecret } = await rotateWebhookSecret(db(), member.organization.id, id);
    return {
      signingSecret,
      previousSecretExpiresAt: endpoint.previousSecretExpiresAt?.toISOString() ?? null,
    };
  },
);

const deleteEndpoint = memberAction(
  "webhooks.manage",
  webhookEndpointIdFormSchema,
  async (member, { id }) => {
    await deleteWebhookEndpoint(db(), member.organization.id, id);
    return { id };
  },
);

/** Deletes, then shows the list: the endpoint's own page, where this may be posted from, is gone. */
export async function deleteWebhookEndpointAction(
  previous: ActionResult<{ id: string }> | null,
  form: FormData,
): Promise<ActionResult<{ id: string }>> {
  const result = await deleteEndpoint(previous, form);
  if (result.ok) redirect("/dashboard/webhooks");
  return result;
}

export const sendTestEventAction = memberAction(
  "webhooks.test",
  sendTestEventFormSchema,
  async (member, { id, type }) => {
    const event = await sendTestEvent(db(), member.organization.id, id, type);
    return { eventId: event.id, type: event.type };
  },
);

export const redeliverEventAction = memberAction(
  "webhooks.test",
  redeliverFormSchema,
  async (member, { id, eventId }) => {
    const delivery = await redeliverEvent(db(), member.organization.id, id, eventId);
    return { deliveryId: delivery.id };
  },
);
