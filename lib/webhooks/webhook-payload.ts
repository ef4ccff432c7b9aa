import type { Event, WebhookAdapter } from "../generated/prisma/client";

/**
 * The body a delivery carries. NONE: the event as recorded (spec 6.3 plus id, type, createdAt).
 * STRIPE: a Stripe-shaped event around it, so an existing Stripe handler reads it unchanged.
 */
export function webhookPayload(event: Event, adapter: WebhookAdapter): string {
  if (adapter === "NONE") return JSON.stringify(event.payload);
  return JSON.stringify({
    id: event.id,
    object: "event",
    api_version: null,
    created: Math.floor(event.createdAt.getTime() / 1000),
    livemode: event.livemode,
    type: event.type,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object: event.payload },
  });
}
