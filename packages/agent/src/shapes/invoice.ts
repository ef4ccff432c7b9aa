import { z } from "zod";
import { decimalString, isoTimestamp } from "./common";

export const invoiceStatuses = [
  "AWAITING_PAYMENT",
  "PARTIALLY_PAID",
  "CONFIRMING",
  "CONFIRMED",
  "OVERDUE",
] as const;

export const paymentObject = z
  .object({
    id: z.string(),
    object: z.literal("payment"),
    txHash: z.string().meta({ description: "The transaction: an EVM hash, or a Solana signature" }),
    logIndex: z.number().int(),
    amount: decimalString,
    blockNumber: z.string().meta({ description: "Block number as a decimal string" }),
    confirmations: z.number().int(),
    status: z.enum(["CONFIRMING", "CONFIRMED", "REORGED"]),
    late: z.boolean(),
    createdAt: isoTimestamp,
  })
  .meta({ id: "Payment" });

export const invoiceObject = z
  .object({
    id: z.string(),
    object: z.literal("invoice"),
    checkoutSessionId: z.string(),
    status: z.enum(invoiceStatuses),
    network: z.string(),
    token: z.string(),
    depositAddress: z.string().meta({
      description: "The address the buyer pays: the invoice's own (EVM), or the Solana Pay recipient wallet",
    }),
    reference: z.string().nullable().meta({
      description: "Solana Pay's reference key (base58) that names this invoice's transfers; null on EVM",
    }),
    amountDue: decimalString,
    amountPaid: decimalString,
    pricingAmount: decimalString,
    pricingCurrency: z.string(),
    rate: decimalString.meta({
      description: "Token units per unit of the pricing currency, frozen at the quote",
    }),
    amountUsd: decimalString.meta({
      description: "The price in USD at the quote's prices, frozen at the quote",
    }),
    quotedAt: isoTimestamp,
    quoteSource: z
      .string()
      .meta({ description: "The prices the quote used: feed, network and update time, or configured rate" }),
    quoteExpiresAt: isoTimestamp.nullable().meta({
      description: "End of the quote window; null for the pricing currency's own stablecoin (no rate)",
    }),
    deadline: isoTimestamp,
    createdAt: isoTimestamp,
    payments: z.array(paymentObject),
  })
  .meta({ id: "Invoice" });

/** The payment part of the merchant's session view: present once an invoice exists. */
export const paymentSummaryObject = z
  .object({
    invoiceId: z.string(),
    status: z.enum(invoiceStatuses),
    network: z.string(),
    token: z.string(),
    amountDue: decimalString,
    amountPaid: decimalString,
    overpaid: decimalString.meta({ description: "Received beyond the amount due" }),
    amountUsd: decimalString.meta({ description: "The price in USD, frozen at the quote" }),
    rate: decimalString.meta({
      description: "Token units per unit of the pricing currency, frozen at the quote",
    }),
    deadline: isoTimestamp,
  })
  .meta({ id: "PaymentSummary" });
