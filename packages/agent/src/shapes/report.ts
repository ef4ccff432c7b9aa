import { z } from "zod";
import { decimalString, isoTimestamp, listOf } from "./common";
import { merchantDetailsObject } from "./organization";
import { refundStatusValues } from "./refund";

// The rows of the merchant's books. Their keys, in this order, are the CSV columns as well as the
// JSON keys (snake_case, as spreadsheets and accounting imports expect); a null is an empty cell.

export const paymentReportRow = z
  .object({
    paid_at: isoTimestamp.meta({ description: "When the invoice was confirmed (UTC)" }),
    invoice_id: z.string(),
    checkout_session_id: z.string(),
    merchant_order_id: z.string().nullable(),
    network: z.string(),
    token: z.string(),
    token_amount: decimalString.meta({ description: "What was received, at the token's precision" }),
    tx_hash: z.string().nullable().meta({
      description:
        "The paying transaction; several, oldest first and separated by spaces, when the buyer paid in parts",
    }),
    payer_address: z.string().nullable().meta({
      description: "Who sent it (several as tx_hash); null when unknown",
    }),
    currency: z.string().meta({ description: "The session's pricing currency" }),
    amount: decimalString.meta({ description: "The session's amount, in currency" }),
    amount_usd: decimalString.meta({ description: "The price in USD at the locked quote" }),
    rate: decimalString.meta({ description: "Token units per unit of currency, the locked quote" }),
    quote_source: z.string().meta({ description: "Where the locked quote's prices came from" }),
    refunded_amount: decimalString.meta({ description: "Refunds succeeded so far, in the token" }),
  })
  .meta({ id: "PaymentReportRow" });

/** The payments report's JSON page: its rows and, beside them, the merchant the books are of. */
export const paymentReportPage = listOf(paymentReportRow).extend({
  merchant: merchantDetailsObject
    .extend({ name: z.string().meta({ description: "The organization's name" }) })
    .optional()
    .meta({
      id: "ReportMerchant",
      description:
        "The merchant as its receipts name it (REST's JSON format; not in CSV, whose columns are fixed)",
    }),
});

export const refundReportRow = z
  .object({
    created_at: isoTimestamp,
    refund_id: z.string(),
    invoice_id: z.string(),
    network: z.string(),
    token: z.string(),
    amount: decimalString.meta({ description: "In the token, at its precision" }),
    status: z.enum(refundStatusValues),
    to_address: z.string().nullable(),
    tx_hash: z.string().nullable(),
    reason: z.string().nullable(),
  })
  .meta({ id: "RefundReportRow" });

export const reportFormats = ["csv", "json"] as const;
