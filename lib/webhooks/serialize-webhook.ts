import { z } from "zod";
import type { WebhookAttempt, WebhookDelivery, WebhookEndpoint } from "../generated/prisma/client";
import { isoTimestamp } from "../openapi/common-schemas";
import type { Paging } from "../validation/fields";
import { listPage } from "../validation/list-page";

export const webhookEndpointObject = z
  .object({
    id: z.string(),
    object: z.literal("webhook_endpoint"),
    name: z.string(),
    url: z.string(),
    adapter: z.enum(["NONE", "STRIPE"]),
    enabled: z.boolean(),
    isDefault: z.boolean().meta({ description: "Kept in step with the organization's webhookUrl setting" }),
    createdAt: isoTimestamp,
  })
  .meta({ id: "WebhookEndpoint" });

export const webhookEndpointWithSecretObject = webhookEndpointObject
  .extend({
    signingSecret: z.string().meta({ description: "Shown only now; store it to verify deliveries" }),
  })
  .meta({ id: "WebhookEndpointWithSecret" });

export const webhookDeliveryObject = z
  .object({
    id: z.string(),
    object: z.literal("webhook_delivery"),
    endpointId: z.string(),
    eventId: z.string(),
    eventType: z.string(),
    status: z.enum(["PENDING", "COOLDOWN", "DELIVERED", "FAILED"]),
    attemptCount: z.number().int(),
    nextAttemptAt: isoTimestamp.nullable(),
    createdAt: isoTimestamp,
    attempts: z.array(
      z.object({
        attemptedAt: isoTimestamp,
        httpStatus: z.number().int().nullable(),
        durationMs: z.number().int(),
        error: z.string().nullable(),
        responseBody: z.string().nullable(),
      }),
    ),
  })
  .meta({ id: "WebhookDelivery" });

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
