import { retrieveOrganization, updateOrganization } from "crypto-checkout-agent/contracts";
import { z } from "zod";
import { apiKeyStatusObject } from "../api-keys/get-api-key-status";
import { privateEnvelope } from "../openapi/common-schemas";
import { errorResponses } from "../openapi/error-responses";
import { contractOperation, type OperationSpec } from "../openapi/operation-spec";
import { updateOrganizationSchema } from "./organization-schemas";

export const organizationOperations: OperationSpec[] = [
  contractOperation(retrieveOrganization, {
    result: "The organization",
    summary: "The organization of the API key",
    tags: ["Organization"],
    auth: ["apiKey"],
    responses: {
      ...errorResponses(401, 429),
    },
  }),
  contractOperation(updateOrganization, {
    result: "The organization",
    summary: "Update name, settlement wallets (replaces the list) and default webhook URL",
    tags: ["Organization"],
    auth: ["apiKey"],
    body: updateOrganizationSchema,
    responses: {
      ...errorResponses(400, 401, 413, 415, 429),
    },
  }),
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
