import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listEndpointDeliveries,
  listEventDeliveries,
  listWebhookEndpoints,
  redeliverEvent,
  retrieveWebhookEndpoint,
  rotateWebhookSecret,
  sendTestWebhook,
  updateWebhookEndpoint,
} from "crypto-checkout-agent/contracts";
import {
  errorEnvelope,
  listOf,
  webhookDeliveryObject,
  webhookEndpointObject,
} from "crypto-checkout-agent/shapes";
import { z } from "zod";
import { privateEnvelope } from "../openapi/common-schemas";
import { errorExample, errorResponses } from "../openapi/error-responses";
import { contractOperation, type OperationSpec } from "../openapi/operation-spec";
import {
  createWebhookEndpointSchema,
  listEndpointDeliveriesQuery,
  listEventDeliveriesQuery,
  redeliverSchema,
  sendTestEventSchema,
  updateWebhookEndpointSchema,
} from "./webhook-endpoint-schemas";

const _base = "/api/private/organization/webhook-endpoints";
const idParam = z.object({ id: z.string().meta({ example: "we_8sK2mQ7xL0pV3nB6cR9tY1wZ" }) });
const _endpoint = privateEnvelope(webhookEndpointObject);
const _deliveries = privateEnvelope(listOf(webhookDeliveryObject));
const tags = ["Webhooks"];

export const webhookOperations: OperationSpec[] = [
  contractOperation(createWebhookEndpoint, {
    result: "The endpoint with its signing secret",
    summary: "Create a webhook endpoint (the signing secret is shown only in this response)",
    tags,
    auth: ["apiKey"],
    body: createWebhookEndpointSchema,
    responses: {
      ...errorResponses(400, 401, 413, 415, 429),
    },
  }),
  contractOperation(listWebhookEndpoints, {
    result: "Endpoints",
    summary: "List webhook endpoints (never their secrets)",
    tags,
    auth: ["apiKey"],
    responses: {
      ...errorResponses(401, 429),
    },
  }),
  contractOperation(retrieveWebhookEndpoint, {
    result: "The endpoint",
    summary: "Retrieve a webhook endpoint",
    tags,
    auth: ["apiKey"],
    params: idParam,
    responses: errorResponses(401, 404, 429),
  }),
  contractOperation(updateWebhookEndpoint, {
    result: "The endpoint",
    summary: "Update name, url, adapter or enabled",
    tags,
    auth: ["apiKey"],
    params: idParam,
    body: updateWebhookEndpointSchema,
    responses: {
      ...errorResponses(400, 401, 404, 429),
    },
  }),
  contractOperation(deleteWebhookEndpoint, {
    result: "The deleted endpoint",
    summary: "Delete a webhook endpoint and its delivery log",
    tags,
    auth: ["apiKey"],
    params: idParam,
    responses: errorResponses(401, 404, 429),
  }),
  contractOperation(rotateWebhookSecret, {
    result: "The endpoint with its new secret",
    summary: "New signing secret; the previous one keeps signing alongside for 24 hours",
    tags,
    auth: ["apiKey"],
    params: idParam,
    responses: {
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
  }),
  contractOperation(sendTestWebhook, {
    result: "Queued",
    summary: "Send an evt_test_… event (livemode false) to this endpoint through the normal delivery path",
    description:
      "The body is optional: `{}` or none sends `payment.confirmed`; `type` picks another event type.",
    tags,
    auth: ["apiKey"],
    params: idParam,
    body: sendTestEventSchema,
    bodyOptional: true,
    responses: {
      ...errorResponses(400, 401, 404, 429),
    },
  }),
  contractOperation(listEndpointDeliveries, {
    result: "Deliveries",
    summary: "Delivery log of an endpoint, newest first, with every attempt",
    tags,
    auth: ["apiKey", "session"],
    params: idParam,
    query: listEndpointDeliveriesQuery,
    responses: {
      ...errorResponses(400, 401, 404, 429),
    },
  }),
  contractOperation(redeliverEvent, {
    result: "The new delivery",
    summary: "Deliver one event to this endpoint again, on a fresh schedule",
    tags,
    auth: ["apiKey"],
    params: idParam,
    body: redeliverSchema,
    responses: {
      ...errorResponses(400, 401, 404, 429),
    },
  }),
  contractOperation(listEventDeliveries, {
    result: "Deliveries",
    summary: "Deliveries of one event to every endpoint, with every attempt",
    tags,
    auth: ["apiKey"],
    params: z.object({ id: z.string() }),
    query: listEventDeliveriesQuery,
    responses: {
      ...errorResponses(400, 401, 404, 429),
    },
  }),
];
