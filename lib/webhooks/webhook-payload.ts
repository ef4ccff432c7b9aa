import type { Event, WebhookAdapter } from "../generated/prisma/client";
import { toStripeEvent } from "./stripe-event";

/**
 * The body a delivery carries. NONE: the event as recorded (payload fields plus id, type, createdAt).
 * STRIPE: the Stripe event and object a Stripe integration already handles (stripe-event.ts).
 */
export function webhookPayload(event: Event, adapter: WebhookAdapter): string {
  return JSON.stringify(adapter === "NONE" ? event.payload : toStripeEvent(event));
}
