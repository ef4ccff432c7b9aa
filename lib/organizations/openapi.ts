import { organizationObject } from "crypto-checkout-agent/shapes";
import { z } from "zod";
import { apiKeyStatusObject } from "../api-keys/get-api-key-status";
import { healthBody } from "../health/health-schemas";
import { privateEnvelope } from "../openapi/common-schemas";
import { errorResponses } from "../openapi/error-responses";
import type { OperationSpec } from "../openapi/operation-spec";
import { updateOrganizationSchema } from "./organization-schemas";

export const organizationOperations: OperationSpec[] = [
  {
    method: "get",
    path: "/api/private/organization/current",
    operationId: "retrieveOrganization",
    summary: "The organization of the API key",
    tags: ["Organization"],
    auth: ["apiKey"],
    responses: {
      200: { description: "The organization", schema: privateEnvelope(organizationObject) },
      ...errorResponses(401, 429),
    },
  },
  {
    method: "put",
    path: "/api/private/organization/current",
    operationId: "updateOrganization",
    summary: "Update name, settlement wallets (replaces the list) and default webhook URL",
    tags: ["Organization"],
    auth: ["apiKey"],
    body: updateOrganizationSchema,
    responses: {
      200: { description: "The organization", schema: privateEnvelope(organizationObject) },
      ...errorResponses(400, 401, 413, 415, 429),
    },
  },
  {
    method: "get",
    path: "/api/public/logos/{id}",
    operationId: "retrieveLogo",
    summary: "An organization's checkout logo (the image bytes, by the id in branding.logoUrl)",
    tags: ["Organization"],
    auth: ["none"],
    params: z.object({ id: z.string().meta({ example: "logo_4fQh0r7Xq1s9bT2mN8kLp3Zy" }) }),
    responses: {
      200: { description: "The image (PNG, JPEG, GIF or WebP)" },
      ...errorResponses(404, 429),
    },
  },
  {
    method: "get",
    path: "/api/private/organization/api-key",
    operationId: "retrieveApiKeyStatus",
    summary: "API key status: prefixes and dates, never a key",
    tags: ["Organization"],
    auth: ["apiKey", "session"],
    responses: {
      200: { description: "Key status", schema: privateEnvelope(apiKeyStatusObject) },
      ...errorResponses(401, 429),
    },
  },
  {
    method: "get",
    path: "/api/health/live",
    operationId: "liveness",
    summary: "Liveness: the process answers",
    tags: ["Service"],
    auth: ["none"],
    responses: { 200: { description: "Alive", schema: z.object({ status: z.literal("ok") }) } },
  },
  {
    method: "get",
    path: "/api/health",
    operationId: "health",
    summary: "Readiness: database, migrations, chain watchers, webhook backlog and job engine",
    tags: ["Service"],
    auth: ["none"],
    responses: {
      200: { description: "Every check passes", schema: healthBody },
      503: { description: "Some check fails (named in `checks`)", schema: healthBody },
    },
  },
  {
    method: "get",
    path: "/api/metrics",
    operationId: "metrics",
    summary: "Prometheus metrics (text exposition format)",
    description:
      "Requires `Authorization: Bearer <SERVICE_METRICS_TOKEN>`; answers 404 while no token is configured.",
    tags: ["Service"],
    auth: ["none"],
    responses: {
      200: { description: "Metrics in the Prometheus text format" },
      ...errorResponses(401, 404),
    },
  },
];
