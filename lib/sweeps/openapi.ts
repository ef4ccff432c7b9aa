import { listOf, sweepObject } from "crypto-checkout-agent/shapes";
import { privateEnvelope } from "../openapi/common-schemas";
import { errorResponses } from "../openapi/error-responses";
import type { OperationSpec } from "../openapi/operation-spec";
import { sweepListQuery } from "./list-sweeps";

export const sweepOperations: OperationSpec[] = [
  {
    method: "get",
    path: "/api/private/sweeps",
    operationId: "listSweeps",
    summary: "Movements of received funds to the settlement wallets, newest first",
    description:
      "Each sweep moves an invoice's confirmed funds from its deposit address to the organization's " +
      "settlement wallet for the network, with every transaction it signed (replacements included).",
    tags: ["Settlement"],
    auth: ["apiKey"],
    query: sweepListQuery,
    responses: {
      200: { description: "A page of sweeps", schema: privateEnvelope(listOf(sweepObject)) },
      ...errorResponses(400, 401, 429),
    },
  },
];
