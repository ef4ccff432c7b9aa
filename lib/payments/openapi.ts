import { pagingQuery } from "../http/fields";
import { listOf, privateEnvelope } from "../openapi/common-schemas";
import { errorResponses } from "../openapi/error-responses";
import type { OperationSpec } from "../openapi/operation-spec";
import { invoiceObject } from "./serialize-invoice";

export const paymentOperations: OperationSpec[] = [
  {
    method: "get",
    path: "/api/private/transactions",
    operationId: "listTransactions",
    summary: "Invoices with their on-chain payments, newest first",
    tags: ["Payments"],
    auth: ["apiKey"],
    query: pagingQuery,
    responses: {
      200: { description: "A page of invoices", schema: privateEnvelope(listOf(invoiceObject)) },
      ...errorResponses(400, 401, 429),
    },
  },
];
