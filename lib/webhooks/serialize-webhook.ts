import type { webhookDeliveryObject, webhookEndpointObject } from "crypto-checkout-agent/shapes";
import type { z } from "zod";
import type { WebhookAttempt, WebhookDelivery, WebhookEndpoint } from "../generated/prisma/client";
import type { Paging } from "../validation/fields";
import { listPage } from "../validation/list-page";

/** An endpoint as lists and updates show it: never the secret. */
export function serializeWebhookEndpoint(endpoint: WebhookEndpoint): z.output<typeof webhookEndpointObject> {
  return {
    id: endpoint.id,
    object: "webhook_endpoint",
    name: endpoint.name,
    url: endpoint.url,
    adapter: endpoint.adapter,
    enabled: endpoint.enabled,
    isDefault: endpoint.isDefault,
    createdAt: endpoint.createdAt.toISOString(),
  };
}

export function serializeWebhookDelivery(
  delivery: WebhookDelivery & { attempts: WebhookAttempt[]; event: { type: string } },
): z.output<typeof webhookDeliveryObject> {
  return {
    id: delivery.id,
    object: "webhook_delivery",
    endpointId: delivery.endpointId,
    eventId: delivery.eventId,
    eventType: delivery.event.type,
    status: delivery.status,
    attemptCount: delivery.attemptCount,
    nextAttemptAt: delivery.nextAttemptAt?.toISOString() ?? null,
    createdAt: delivery.createdAt.toISOString(),
    attempts: delivery.attempts.map((attempt) => ({
      attemptedAt: attempt.attemptedAt.toISOString(),
      httpStatus: attempt.httpStatus,
      durationMs: attempt.durationMs,
      error: attempt.error,
      responseBody: attempt.responseBody,
    })),
  };
}

export function serializeDeliveryPage(
  page: { deliveries: Parameters<typeof serializeWebhookDelivery>[0][]; total: number },
  paging: Paging,
) {
  return listPage(page.deliveries.map(serializeWebhookDelivery), paging, page.total);
}
