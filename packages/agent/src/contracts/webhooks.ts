import { z } from "zod";
import {
  listOf,
  rotatedWebhookEndpointObject,
  testEventObject,
  webhookDeliveryObject,
  webhookEndpointListObject,
  webhookEndpointObject,
  webhookEndpointWithSecretObject,
} from "../shapes";
import { paging, webhookEndpointId } from "./arguments";
import { create, defineContract, destructiveUpdate, read, tool, toolOf } from "./contract";

const endpoints = "/api/private/organization/webhook-endpoints";
const endpoint = z.object({ id: webhookEndpointId });
const readRow = { row: "webhooks.read", access: "read", role: "member" } as const;
const manageRow = { row: "webhooks.manage", access: "write", role: "owner" } as const;
const testRow = { row: "webhooks.test", access: "write", role: "member" } as const;
const adapter = z.enum(["NONE", "STRIPE"]);

export const createWebhookEndpoint = defineContract({
  operationId: "createWebhookEndpoint",
  method: "post",
  path: endpoints,
  input: {
    body: z.object({
      name: z.string().max(255),
      url: z.string().max(2048).describe("Public https URL of the receiver"),
      adapter: adapter.optional().describe("Default NONE"),
      enabled: z.boolean().optional().describe("Default true"),
    }),
  },
  result: webhookEndpointWithSecretObject,
  status: 201,
  authority: manageRow,
  tool: {
    name: "service_webhooks_create",
    title: "Create a webhook endpoint",
    description:
      "Adds a URL that receives signed event deliveries (payment.confirmed and others). adapter STRIPE sends Stripe-shaped events with a Stripe-Signature header so an existing Stripe handler works unchanged. Returns the signing secret once: store it where the receiving server reads it, then call service_webhooks_send_test.",
    annotations: create,
  },
  cli: {
    command: "webhooks:configure",
    description:
      "Create (or update) the webhook endpoint; its signing secret is stored for webhooks:verify, never printed.",
    example: "crypto-checkout webhooks:configure --url https://shop.example.com/webhooks --adapter NONE",
    optional: ["name"],
    omit: ["enabled"],
    describe: { name: "A label for the endpoint" },
    differs: {
      name: "the endpoint this kit configured before keeps its name; a new one is called Agent webhook",
      enabled: "the endpoint the command points at the URL is enabled",
    },
  },
});

export const listWebhookEndpoints = defineContract({
  operationId: "listWebhookEndpoints",
  method: "get",
  path: endpoints,
  input: {},
  result: webhookEndpointListObject,
  authority: readRow,
  tool: {
    name: "service_webhooks_list",
    title: "List webhook endpoints",
    description: "Lists this organization's webhook endpoints (never their secrets).",
    annotations: read,
  },
});

export const retrieveWebhookEndpoint = defineContract({
  operationId: "retrieveWebhookEndpoint",
  method: "get",
  path: `${endpoints}/{id}`,
  input: { params: endpoint },
  result: webhookEndpointObject,
  authority: readRow,
});

export const updateWebhookEndpoint = defineContract({
  operationId: "updateWebhookEndpoint",
  method: "patch",
  path: `${endpoints}/{id}`,
  input: {
    params: endpoint,
    body: z.object({
      name: z.string().max(255).optional(),
      url: z.string().max(2048).optional(),
      adapter: adapter.optional(),
      enabled: z.boolean().optional(),
    }),
  },
  result: webhookEndpointObject,
  authority: manageRow,
  tool: {
    name: "service_webhooks_update",
    title: "Update a webhook endpoint",
    description:
      "Changes an endpoint's name, URL, adapter or enabled flag; fields left out stay. Disabling or moving it changes where events go.",
    annotations: destructiveUpdate,
  },
});

export const deleteWebhookEndpoint = defineContract({
  operationId: "deleteWebhookEndpoint",
  method: "delete",
  path: `${endpoints}/{id}`,
  input: { params: endpoint },
  result: webhookEndpointObject.extend({ deleted: z.literal(true) }),
  authority: manageRow,
});

export const rotateWebhookSecret = defineContract({
  operationId: "rotateWebhookSecret",
  method: "post",
  path: `${endpoints}/{id}/rotate-secret`,
  input: { params: endpoint },
  result: rotatedWebhookEndpointObject,
  authority: manageRow,
  tool: {
    name: "service_webhooks_rotate_secret",
    title: "Rotate a webhook signing secret",
    description:
      "Issues a new signing secret for an endpoint and returns it once; the old one keeps signing alongside for a grace period (previousSecretExpiresAt), after which receivers still using it reject deliveries. Needs the user's confirmation (first call returns a preview and a confirmation token, error code confirmation_required).",
    annotations: { ...create, destructiveHint: true },
    confirmation: true,
  },
});

export const sendTestWebhook = defineContract({
  operationId: "sendTestWebhook",
  method: "post",
  path: `${endpoints}/{id}/test`,
  input: {
    params: endpoint,
    body: z.object({
      type: z
        .string()
        .max(64)
        .optional()
        .describe("Event type to send, e.g. refund.succeeded; default payment.confirmed"),
    }),
  },
  result: testEventObject,
  status: 202,
  authority: testRow,
  tool: {
    name: "service_webhooks_send_test",
    title: "Send a test event",
    description:
      "Sends a signed test event (id evt_test_…, livemode false) to one endpoint through the real delivery path; creates no payments. Then check the result with service_webhooks_list_deliveries.",
    annotations: { ...create, openWorldHint: true },
  },
});

export const listEndpointDeliveries = defineContract({
  operationId: "listEndpointDeliveries",
  method: "get",
  path: `${endpoints}/{id}/deliveries`,
  input: { params: endpoint, query: z.object(paging) },
  result: listOf(webhookDeliveryObject),
  authority: readRow,
  tool: {
    name: "service_webhooks_list_deliveries",
    title: "List webhook deliveries",
    description:
      "Lists one endpoint's delivery attempts, newest first: status, HTTP status, error and the receiver's response. Use it to debug a receiver; for one event's deliveries to every endpoint use service_webhooks_list_event_deliveries.",
    annotations: read,
  },
});

export const listEventDeliveries = defineContract({
  operationId: "listEventDeliveries",
  method: "get",
  path: "/api/private/events/{id}/deliveries",
  input: {
    params: z.object({ id: z.string().max(64).describe("Event id (evt_…)") }),
    query: z.object(paging),
  },
  result: listOf(webhookDeliveryObject),
  authority: readRow,
  tool: {
    name: "service_webhooks_list_event_deliveries",
    title: "List an event's deliveries",
    description:
      "Lists the deliveries of one event (evt_…) to every endpoint, newest first, with each attempt's status, HTTP status, error and the receiver's response.",
    annotations: read,
  },
});

export const redeliverEvent = defineContract({
  operationId: "redeliverEvent",
  method: "post",
  path: `${endpoints}/{id}/redeliver`,
  input: { params: endpoint, body: z.object({ eventId: z.string().max(64) }) },
  result: webhookDeliveryObject,
  status: 202,
  authority: testRow,
  tool: {
    name: "service_webhooks_redeliver",
    title: "Redeliver an event",
    description:
      "Sends an event to an endpoint again now (e.g. after fixing the receiver). Receivers must deduplicate by event id.",
    annotations: { ...create, openWorldHint: true },
  },
});

export const verifySignatureTool = tool({
  name: "service_webhooks_verify_signature",
  title: "Verify a webhook signature",
  description:
    "Checks a delivery's X-Service-Signature (or Stripe-Signature) header against its raw body and a signing secret, as a receiver must: use it to debug a handler that rejects deliveries. Runs locally; nothing is sent.",
  inputSchema: z.strictObject({
    rawBody: z.string().max(1_000_000).describe("The request body exactly as received, not re-serialized"),
    signatureHeader: z.string().max(2000).describe("t=…,v1=…"),
    secret: z.string().max(200).optional().describe("whsec_…; default: SERVICE_WEBHOOK_SECRET"),
    toleranceSeconds: z.number().int().min(1).max(86_400).optional().describe("Default 300"),
  }),
  outputSchema: z.object({
    valid: z.boolean(),
    reason: z.enum(["malformed_header", "timestamp_out_of_tolerance", "signature_mismatch"]).nullable(),
    timestamp: z.number().int().nullable(),
  }),
  annotations: read,
  access: "read",
  scope: "local-only",
  withoutTwin: "local only: checked offline",
});

export const webhookContracts = [
  createWebhookEndpoint,
  listWebhookEndpoints,
  retrieveWebhookEndpoint,
  updateWebhookEndpoint,
  deleteWebhookEndpoint,
  rotateWebhookSecret,
  sendTestWebhook,
  listEndpointDeliveries,
  listEventDeliveries,
  redeliverEvent,
];
export const webhookTools = [
  toolOf(createWebhookEndpoint),
  toolOf(listWebhookEndpoints),
  toolOf(updateWebhookEndpoint),
  toolOf(rotateWebhookSecret),
  toolOf(sendTestWebhook),
  toolOf(listEndpointDeliveries),
  toolOf(listEventDeliveries),
  toolOf(redeliverEvent),
] as const;
