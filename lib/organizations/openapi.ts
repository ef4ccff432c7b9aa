import { organizationObject } from "crypto-checkout-agent/shapes";
import { z } from "zod";
import { apiKeyStatusObject } from "../api-keys/get-api-key-status";
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
];
