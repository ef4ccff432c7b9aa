import { createRefund, listRefunds, retrieveRefund } from "crypto-checkout-agent/contracts";
import { errorEnvelope } from "crypto-checkout-agent/shapes";
import { z } from "zod";
import { idempotencyKeyHeader } from "../idempotency/parse-idempotency-key";
import { errorResponses } from "../openapi/error-responses";
import { contractOperation, type OperationSpec } from "../openapi/operation-spec";
import { createRefundSchema, listRefundsQuery } from "./refund-schemas";

const idParam = z.object({ id: z.string().meta({ example: "rfd_4fKq2cVb8mZ1xT9a" }) });
const tags = ["Refunds"];

export const refundOperations: OperationSpec[] = [
  contractOperation(createRefund, {
    result: "The refund",
    summary: "Refund an invoice on chain: to the payer, through a claim link, or to an address",
    description:
      "Refunds come from the network's refund wallet. With `Idempotency-Key` (recommended) a retry with the same body returns the original response (header `Idempotent-Replayed: true`) and refunds once; with a different body, 409. API keys decide; an agent credential or OAuth token is allowed a refund to the payer within the organization's daily cap (`refundAgentDailyCapUsd`), and anything else it asks is answered 200 with the refund in status `requires_approval` until an owner confirms it in the dashboard.",
    tags,
    auth: ["apiKey"],
    headers: z.object({ "Idempotency-Key": idempotencyKeyHeader.optional() }),
    body: createRefundSchema,
    responses: {
      ...errorResponses(401, 404, 413, 415, 429),
      400: {
        description:
          "Invalid request (`error.param` names the field); `no_payer_address`: the invoice's payer is unknown (a transfer from the zero address), refund through `claim` or to an address; `several_payer_addresses`: it was paid from several addresses, named in the message: send one of them as `destination`",
        schema: errorEnvelope,
      },
      409: {
        description:
          "`refund_exceeds_payment`: refunds not failed would exceed the confirmed amount paid; `invoice_not_paid`: no confirmed payment yet; `idempotency_key_reused`: the key was used with another body",
        schema: errorEnvelope,
      },
    },
  }),
  contractOperation(listRefunds, {
    result: "A page of refunds",
    summary: "List refunds, newest first (filter by invoice or status)",
    tags,
    auth: ["apiKey"],
    query: listRefundsQuery,
    responses: {
      ...errorResponses(400, 401, 429),
    },
  }),
  contractOperation(retrieveRefund, {
    result: "The refund",
    summary: "Retrieve a refund",
    tags,
    auth: ["apiKey"],
    params: idParam,
    responses: {
      ...errorResponses(401, 404, 429),
    },
  }),
];
