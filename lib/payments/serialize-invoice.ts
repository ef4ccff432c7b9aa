import { z } from "zod";
import type { Invoice, Payment } from "../generated/prisma/client";
import { formatDecimal } from "../money/decimal";
import { decimalString, isoTimestamp } from "../openapi/common-schemas";
import { invoiceStatuses } from "./invoice-state";
import { formatTokenAmount } from "./payment-summary";

export const paymentObject = z
  .object({
    id: z.string(),
    object: z.literal("payment"),
    txHash: z.string(),
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
    depositAddress: z.string(),
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

const plain = (value: { toString(): string }) => value.toString();

export function serializeInvoice(invoice: Invoice & { payments: Payment[] }): z.output<typeof invoiceObject> {
  // Token amounts at the token's precision, as the buyer's page and the events show them.
  const tokens = (value: { toString(): string }) => formatTokenAmount(invoice.network, invoice.token, value);
  return {
    id: invoice.id,
    object: "invoice",
    checkoutSessionId: invoice.checkoutSessionId,
    status: invoice.status,
    network: invoice.network,
    token: invoice.token,
    depositAddress: invoice.depositAddress,
    amountDue: tokens(invoice.amountDue),
    amountPaid: tokens(invoice.amountPaid),
    pricingAmount: plain(invoice.pricingAmount),
    pricingCurrency: invoice.pricingCurrency,
    rate: formatDecimal(invoice.rate),
    amountUsd: invoice.amountUsd.toFixed(2),
    quotedAt: invoice.quotedAt.toISOString(),
    quoteSource: invoice.quoteSource,
    quoteExpiresAt: invoice.quoteExpiresAt?.toISOString() ?? null,
    deadline: invoice.deadline.toISOString(),
    createdAt: invoice.createdAt.toISOString(),
    payments: invoice.payments.map((payment) => ({
      id: payment.id,
      object: "payment",
      txHash: payment.txHash,
      logIndex: payment.logIndex,
      amount: tokens(payment.amount),
      blockNumber: payment.blockNumber.toString(),
      confirmations: payment.confirmations,
      status: payment.status,
      late: payment.late,
      createdAt: payment.createdAt.toISOString(),
    })),
  };
}
