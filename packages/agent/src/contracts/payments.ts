import { z } from "zod";
import { invoiceObject, listOf } from "../shapes";
import { paging, paymentStatusObject } from "./arguments";
import { defineContract, read, tool, toolOf } from "./contract";

export const listTransactions = defineContract({
  operationId: "listTransactions",
  method: "get",
  path: "/api/private/transactions",
  input: { query: z.object(paging) },
  result: listOf(invoiceObject),
  authority: { row: "transactions.read", access: "read", role: "member" },
  tool: {
    name: "service_transactions_list",
    title: "List transactions",
    description:
      "Lists this organization's invoices (one per started payment) with their on-chain payments, newest first, a page at a time.",
    annotations: read,
  },
});

export const paymentsStatusTool = tool({
  name: "service_payments_status",
  title: "Payment status of a checkout",
  description:
    "Answers whether a checkout session is paid: `paid` is true only once the full amount is confirmed on chain. Poll it (every few seconds) after sending a buyer to a session; in production rely on the payment.confirmed webhook instead.",
  inputSchema: z.strictObject({
    checkoutSessionId: z.string().max(64).describe("Checkout session id (ycs_…)"),
  }),
  outputSchema: paymentStatusObject,
  annotations: read,
  access: "read",
  scope: "remote-and-local",
  row: "checkoutSessions.read",
  withoutTwin: "a paid/not paid summary of GET /api/checkout-sessions/{id}",
});

export const paymentContracts = [listTransactions];
export const transactionTools = [toolOf(listTransactions)] as const;
