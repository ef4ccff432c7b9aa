import { createCheckoutSession, retrieveCheckoutSession } from "crypto-checkout-agent/contracts";
import { z } from "zod";
import { idempotencyKeyHeader } from "../idempotency/parse-idempotency-key";
import { errorResponses } from "../openapi/error-responses";
import { contractOperation, type OperationSpec } from "../openapi/operation-spec";
import { createCheckoutSessionSchema } from "./checkout-session-schemas";
import { publicCheckoutSessionObject } from "./serialize-checkout-session";

const idParam = z.object({ id: z.string().meta({ example: "ycs_4fQh0r7Xq1s9bT2mN8kLp3Zy" }) });

export const checkoutOperations: OperationSpec[] = [
  contractOperation(createCheckoutSession, {
    result: "The session",
    summary: "Create a checkout session",
    description:
      "Standalone (send `amount` and `currency`) or paylink-backed (send `paylinkId`; the price comes from the paylink). `successUrl` and `cancelUrl` may contain `{CHECKOUT_SESSION_ID}`. The same Idempotency-Key with the same body returns the original response (header `Idempotent-Replayed: true`); with a different body, 409.",
    tags: ["Checkout sessions"],
    auth: ["apiKey"],
    headers: z.object({
      "Idempotency-Key": idempotencyKeyHeader
        .optional()
        .meta({ description: "Required for standalone sessions" }),
    }),
    body: createCheckoutSessionSchema,
    responses: {
      ...errorResponses(400, 401, 404, 409, 413, 415, 429),
    },
  }),
  contractOperation(retrieveCheckoutSession, {
    result: "The session",
    summary: "Retrieve a checkout session",
    description: "Fulfil on the invoice status or the payment.confirmed webhook, never on COMPLETED alone.",
    tags: ["Checkout sessions"],
    auth: ["apiKey"],
    params: idParam,
    responses: {
      ...errorResponses(401, 404, 429),
    },
  }),
  {
    method: "get",
    path: "/api/public/checkout-sessions/{id}",
    operationId: "retrievePublicCheckoutSession",
    summary: "What the hosted checkout page shows",
    tags: ["Hosted checkout"],
    auth: ["none"],
    params: idParam,
    responses: {
      200: { description: "The session's public view", schema: publicCheckoutSessionObject },
      ...errorResponses(404, 429),
    },
  },
];
