import { reportPayments, reportRefunds } from "crypto-checkout-agent/contracts";
import { errorResponses } from "../openapi/error-responses";
import { contractOperation, type OperationSpec } from "../openapi/operation-spec";
import { reportQuerySchema } from "./report-schemas";

const csvRules =
  "CSV (the default) is RFC 4180 in UTF-8 with a header row, these columns in this order, the whole range streamed; " +
  "a cell starting with = + - @, tab or CR is written with a leading `'` so no spreadsheet runs it. " +
  "`format=json` gives the same rows as objects with the same keys, a page of up to 1000 at a time (`page`, `rows`). " +
  "Times are UTC; `from` and `to` take an offset (or a date, UTC midnight). Members may read it.";

export const reportOperations: OperationSpec[] = [
  contractOperation(reportPayments, {
    result: "The payments report: CSV, or a page of its rows",
    resultText: {
      mediaType: "text/csv",
      example:
        "paid_at,invoice_id,checkout_session_id,merchant_order_id,network,token,token_amount,tx_hash,payer_address,currency,amount,amount_usd,rate,quote_source,refunded_amount\r\n" +
        "2026-03-02T10:15:00.000Z,inv_…,ycs_…,order-1001,base,USDC,49.000000,0x…,0x…,USD,49.00,49.00,1,stablecoin 1:1,0.000000\r\n",
    },
    summary: "The books: one row per invoice confirmed in [from, to)",
    description: `Token amount received, transaction, payer, the session's amount and currency, the locked quote (rate, USD amount, source) and what was refunded so far (succeeded refunds, in the token). ${csvRules}`,
    tags: ["Reports"],
    auth: ["apiKey", "session"],
    query: reportQuerySchema,
    responses: { ...errorResponses(400, 401, 429) },
  }),
  contractOperation(reportRefunds, {
    result: "The refunds report: CSV, or a page of its rows",
    resultText: {
      mediaType: "text/csv",
      example:
        "created_at,refund_id,invoice_id,network,token,amount,status,to_address,tx_hash,reason\r\n" +
        "2026-03-03T09:00:00.000Z,rfd_…,inv_…,base,USDC,10.000000,succeeded,0x…,0x…,damaged item\r\n",
    },
    summary: "Refunds created in [from, to), whatever their status",
    description: `Never a claim link. ${csvRules}`,
    tags: ["Reports"],
    auth: ["apiKey", "session"],
    query: reportQuerySchema,
    responses: { ...errorResponses(400, 401, 429) },
  }),
];
