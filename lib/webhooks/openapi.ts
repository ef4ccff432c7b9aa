import {
  errorEnvelope,
  listOf,
  rotatedWebhookEndpointObject,
  testEventObject,
  webhookDeliveryObject,
  webhookEndpointListObject,
  webhookEndpointObject,
  webhookEndpointWithSecretObject,
} from "crypto-checkout-agent/shapes";
import { z } from "zod";
import { privateEnvelope } from "../openapi/common-schemas";
import { errorExample, errorResponses } from "../openapi/error-responses";
import type { OperationSpec } from "../openapi/operation-spec";
import { pagingQuery } from "../validation/fields";
import {
  createWebhookEndpointSchema,
  redeliverSchema,
  sendTestEventSchema,
  updateWebhookEndpointSchema,
} from "./webhook-endpoint-schemas";

const base = "/api/private/organization/webhook-endpoints";
const idParam = z.object({ id: z.string().meta({ example: "we_8sK2mQ7xL0pV3nB6cR9tY1wZ" }) });
const endpoint = privateEnvelope(webhookEndpointObject);
const deliveries = privateEnvelope(listOf(webhookDeliveryObject));
const tags = ["Webhooks"];

export const webhookOperations: OperationSpec[] = [
  {
    method: "post",
    path: base,
    operationId: "createWebhookEndpoint",
    summary: "Create a webhook endpoint (the signing secret is shown only in this response)",
    tags,
    auth: ["apiKey"],
    body: createWebhookEndpointSchema,
    responses: {
      201: {
        description: "The endpoint with its signing secret",
        schema: privateEnvelope(webhookEndpointWithSecretObject),
      },
      ...errorResponses(400, 401, 413, 415, 429),
    },
  },
  {
    method: "get",
    path: base,
    operationId: "listWebhookEndpoints",
    summary: "List webhook endpoints (never their secrets)",
    tags,
    auth: ["apiKey"],
    responses: {
      200: {
        description: "Endpoints",
        schema: privateEnvelope(webhookEndpointListObject),
      },
      ...errorResponses(401, 429),
    },
  },
  {
    method: "get",
    path: `${base}/{id}`,
    operationId: "retrieveWebhookEndpoint",
    summary: "Retrieve a webhook endpoint",
    tags,
    auth: ["apiKey"],
    params: idParam,
    responses: { 200: { description: "The endpoint", schema: endpoint }, ...errorResponses(401, 404, 429) },
  },
  {
    method: "patch",
    path: `${base}/{id}`,
    operationId: "updateWebhookEndpoint",
    summary: "Update name, url, adapter or enabled",
    tags,
    auth: ["apiKey"],
    params: idParam,
    body: updateWebhookEndpointSchema,
    responses: {
      200: { description: "The endpoint", schema: endpoint },
      ...errorResponses(400, 401, 404, 429),
    },
  },
  {
    method: "delete",
    path: `${base}/{id}`,
    operationId: "deleteWebhookEndpoint",
    summary: "Delete a webhook endpoint and its delivery log",
    tags,
    auth: ["apiKey"],
    params: idParam,
    responses: {
      200: {
        description: "The deleted endpoint",
        schema: privateEnvelope(webhookEndpointObject.extend({ deleted: z.literal(true) })),
      },
      ...errorResponses(401, 404, 429),
    },
  },
  {
    method: "post",
    path: `${base}/{id}/rotate-secret`,
    operationId: "rotateWebhookSecret",
    summary: "New signing secret; the previous one keeps signing alongside for 24 hours",
    tags,
    auth: ["apiKey"],
    params: idParam,
    responses: {
      200: {
        description: "The endpoint with its new secret",
        schema: privateEnvelope(rotatedWebhookEndpointObject),
      },
      ...errorResponses(401, 404, 429),
      409: {
        description:
          "`concurrent_rotation`: another rotation of this secret committed first; its secret is the current one",
        schema: errorEnvelope,
        example: errorExample(409, {
          code: "concurrent_rotation",
          message: "Another rotation of this secret committed first.",
        }),
      },
    },
  },
  {
    method: "post",
    path: `${base}/{id}/test`,
    operationId: "sendTestWebhook",
    summary: "Send an evt_test_… event (livemode false) to this endpoint through the normal delivery path",
    description:
      "The body is optional: `{}` or none sends `payment.confirmed`; `type` picks another event type.",
    tags,
    auth: ["apiKey"],
    params: idParam,
    body: sendTestEventSchema,
    bodyOptional: true,
    responses: {
      202: {
        description: "Queued",
        schema: privateEnvelope(testEventObject),
      },
      ...errorResponses(400, 401, 404, 429),
    },
  },
  {
    method: "get",
    path: `${base}/{id}/deliveries`,
    operationId: "listEndpointDeliveries",
    summary: "Delivery log of an endpoint, newest first, with every attempt",
    tags,
    auth: ["apiKey", "session"],
    params: idParam,
    query: pagingQuery,
    responses: {
      200: { description: "Deliveries", schema: deliveries },
      ...errorResponses(400, 401, 404, 429),
    },
  },
  {
    method: "post",
    path: `${base}/{id}/redeliver`,
    operationId: "redeliverEvent",
    summary: "Deliver one event to this endpoint again, on a fresh schedule",
    tags,
    auth: ["apiKey"],
    params: idParam,
    body: redeliverSchema,
    responses: {
      202: { description: "The new delivery", schema: privateEnvelope(webhookDeliveryObject) },
      ...errorResponses(400, 401, 404, 429),
    },
  },
  {
    method: "get",
    path: "/api/private/events/{id}/deliveries",
    operationId: "listEventDeliveries",
    summary: "Deliveries of one event to every endpoint, with every attempt",
    tags,
    auth: ["apiKey"],
    params: z.object({ id: z.string() }),
    query: pagingQuery,
    responses: {
      200: { description: "Deliveries", schema: deliveries },
      ...errorResponses(400, 401, 404, 429),
    },
  },
];
