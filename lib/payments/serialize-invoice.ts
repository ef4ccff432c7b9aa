import type { invoiceObject } from "crypto-checkout-agent/shapes";
import type { z } from "zod";
import type { Invoice, Payment } from "../generated/prisma/client";
import { formatDecimal } from "../money/decimal";
import { formatTokenAmount } from "../money/format-token-amount";

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
    reference: invoice.reference,
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
