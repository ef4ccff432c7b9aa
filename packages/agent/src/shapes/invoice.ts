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

/**
 * An invoice as its buyer pays it (the hosted page, the public payment routes, a session created
 * with a network): where to pay, the wallet link, and what arrived. No merchant data.
 */
export const paymentRequestObject = z
  .object({
    id: z.string(),
    object: z.literal("payment_request"),
    checkoutSessionId: z.string(),
    status: z.enum(invoiceStatuses),
    network: z.string(),
    networkName: z.string(),
    chainId: z.number().int().nullable(),
    explorerUrl: z.string().nullable().meta({
      description:
        "Block explorer base: a page is its path plus /address/… or /tx/…, its query kept (https://explorer.solana.com?cluster=devnet → https://explorer.solana.com/tx/…?cluster=devnet); null for a local chain",
    }),
    token: z.string(),
    tokenAddress: z.string().nullable(),
    tokenDecimals: z.number().int(),
    depositAddress: z.string().meta({
      description: "The address to pay: the invoice's own (EVM), or the Solana Pay recipient wallet",
    }),
    reference: z.string().nullable().meta({
      description:
        "Solana Pay's reference (base58), unique to this invoice: the transfer must carry it as a read-only key; null on EVM",
    }),
    walletChain: z.string().nullable().meta({
      description:
        "The Wallet Standard chain browser wallets pay on (solana:mainnet, solana:devnet); null where they pay through EIP-1193 (EVM)",
    }),
    paymentUri: z.string().meta({
      description:
        "What a wallet scans to pay the amount left: an EIP-681 URI (ethereum:…) or a Solana Pay transfer request (solana:…)",
    }),
    amountDue: decimalString,
    amountPaid: decimalString,
    remaining: decimalString,
    overpaid: decimalString.meta({ description: "Received beyond the amount due" }),
    requiredConfirmations: z.number().int().nullable(),
    deadline: isoTimestamp,
    quoteExpiresAt: isoTimestamp.nullable().meta({
      description:
        "The amount due is promised until then; a payment after it, before the deadline, is still accepted at that amount. Null for the currency's own stablecoin",
    }),
    payments: z.array(
      z.object({
        txHash: z.string(),
        amount: decimalString,
        confirmations: z.number().int(),
        status: z.string(),
        detectedAt: isoTimestamp,
      }),
    ),
  })
  .meta({ id: "PaymentRequest" });
