import { listTransactions } from "crypto-checkout-agent/contracts";
import { paymentRequestObject } from "crypto-checkout-agent/shapes";
import { z } from "zod";
import { errorResponses } from "../openapi/error-responses";
import { contractOperation, type OperationSpec } from "../openapi/operation-spec";
import {
  devnetPaySchema,
  listTransactionsQuery,
  startPaymentSchema,
  walletTransactionSchema,
} from "./payment-schemas";
import { devnetPaymentObject } from "./serialize-devnet-payment";
import { walletTransactionObject } from "./serialize-wallet-transaction";

export const paymentOperations: OperationSpec[] = [
  {
    method: "post",
    path: "/api/public/payments",
    operationId: "startPayment",
    summary:
      "The buyer starts paying a checkout session: creates its invoice (once) with a deposit address and a frozen quote",
    tags: ["Hosted checkout"],
    auth: ["none"],
    body: startPaymentSchema,
    responses: {
      201: { description: "The payment request", schema: paymentRequestObject },
      ...errorResponses(400, 404, 409, 413, 415, 429),
    },
  },
  {
    method: "get",
    path: "/api/public/payments/{id}",
    operationId: "retrievePublicPayment",
    summary: "Payment status for the buyer's page",
    tags: ["Hosted checkout"],
    auth: ["none"],
    params: z.object({ id: z.string() }),
    responses: {
      200: { description: "The payment request", schema: paymentRequestObject },
      ...errorResponses(404, 429),
    },
  },
  {
    method: "post",
    path: "/api/public/payments/{id}/devnet-pay",
    operationId: "payOnDevnet",
    summary: "Local devnet only: the test wallet pays the invoice (the remaining amount by default)",
    description:
      "Sends the invoice's token from the test wallet's own account (a transfer, so a refund to `payer` returns to it) and answers once the transfer is mined; " +
      "the watcher then records it like any payment. Invoices on any other network answer 404.",
    tags: ["Hosted checkout"],
    auth: ["none"],
    params: z.object({ id: z.string() }),
    body: devnetPaySchema,
    responses: {
      200: { description: "The transfer sent", schema: devnetPaymentObject },
      ...errorResponses(400, 404, 409, 413, 415, 429),
    },
  },
  {
    method: "post",
    path: "/api/public/payments/{id}/wallet-transaction",
    operationId: "buildWalletTransaction",
    summary: "The transaction a browser wallet signs and sends to pay what is left (Solana)",
    description:
      "For the hosted page's Wallet Standard button (Phantom, Solflare, Backpack): the service builds the buyer's transfer of the remaining amount, " +
      "carrying the invoice's reference, with a recent blockhash; the wallet signs it as fee payer and sends it. Invoices on networks whose wallets pay otherwise answer 404.",
    tags: ["Hosted checkout"],
    auth: ["none"],
    params: z.object({ id: z.string() }),
    body: walletTransactionSchema,
    responses: {
      200: { description: "The unsigned transaction", schema: walletTransactionObject },
      ...errorResponses(400, 404, 409, 413, 415, 429, 503),
    },
  },
  contractOperation(listTransactions, {
    result: "A page of invoices",
    summary: "Invoices with their on-chain payments, newest first",
    tags: ["Payments"],
    auth: ["apiKey"],
    query: listTransactionsQuery,
    responses: {
      ...errorResponses(400, 401, 429),
    },
  }),
];
