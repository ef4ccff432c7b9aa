import { listSweeps } from "crypto-checkout-agent/contracts";
import { errorResponses } from "../openapi/error-responses";
import { contractOperation, type OperationSpec } from "../openapi/operation-spec";
import { sweepListQuery } from "./list-sweeps";

export const sweepOperations: OperationSpec[] = [
  contractOperation(listSweeps, {
    result: "A page of sweeps",
    summary: "Movements of received funds to the settlement wallets, newest first",
    description:
      "Each sweep moves an invoice's confirmed funds from its deposit address to the organization's " +
      "settlement wallet for the network, with every transaction it signed (replacements included).",
    tags: ["Settlement"],
    auth: ["apiKey"],
    query: sweepListQuery,
    responses: {
      ...errorResponses(400, 401, 429),
    },
  }),
];
