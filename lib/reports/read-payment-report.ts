import { paymentReportRow } from "crypto-checkout-agent/shapes";
import type { z } from "zod";
import { chainFamilyOf } from "../config";
import type { Db } from "../db/client";
import type { Prisma } from "../generated/prisma/client";
import { formatDecimal, formatPrice, Money } from "../money/decimal";
import { formatTokenAmount } from "../money/format-token-amount";
import { keysetWindow, type ReportReader } from "./report-reader";
import type { ReportRange } from "./report-schemas";

export type PaymentReportRow = z.output<typeof paymentReportRow>;
/** The CSV columns, in order: the row shape's keys. */
export const paymentReportColumns = Object.keys(paymentReportRow.shape) as (keyof PaymentReportRow)[];

/**
 * The payments report of [from, to): the organization's confirmed invoices whose confirmation falls
 * in the range, in confirmation order, a batch at a time. `count` is how many there are; `read` a
 * batch in three queries whatever its size (invoices with their sessions, their payments, their
 * succeeded refunds' sums).
 */
export function readPaymentReport(database: Db, organizationId: string, range: ReportRange) {
  const where: Prisma.InvoiceWhereInput = {
    organizationId,
    status: "CONFIRMED",
    confirmedAt: { gte: range.from, lt: range.to },
  };
  const read: ReportReader<PaymentReportRow> = async (window) => {
    const { after, ...order } = keysetWindow("confirmedAt", window);
    const invoices = await database.invoice.findMany({
      where: { ...where, ...(after as Prisma.InvoiceWhereInput) },
      ...order,
      include: {
        checkoutSession: { select: { merchantOrderId: true, amount: true, currency: true } },
        payments: {
          where: { status: { not: "REORGED" } },
          orderBy: [{ createdAt: "asc" }, { logIndex: "asc" }],
          select: { txHash: true, fromAddress: true },
        },
      },
    });
    if (invoices.length === 0) return { rows: [], last: null };
    const refunded = await database.refund.groupBy({
      by: ["invoiceId"],
      where: {
        organizationId,
        invoiceId: { in: invoices.map((invoice) => invoice.id) },
        status: "SUCCEEDED",
      },
      _sum: { amount: true },
    });
    const refundedBy = new Map(
      refunded.map((entry) => [entry.invoiceId, entry._sum.amount?.toString() ?? "0"]),
    );
    const final = invoices[invoices.length - 1];
    return {
      rows: invoices.map((invoice) => paymentRow(invoice, refundedBy.get(invoice.id) ?? "0")),
      last: { at: final.confirmedAt as Date, id: final.id },
    };
  };
  return { read, count: () => database.invoice.count({ where }) };
}

type ReportedInvoice = Prisma.InvoiceGetPayload<{
  include: {
    checkoutSession: { select: { merchantOrderId: true; amount: true; currency: true } };
    payments: { select: { txHash: true; fromAddress: true } };
  };
}>;

function paymentRow(invoice: ReportedInvoice, refunded: string): PaymentReportRow {
  const tokens = (value: { toString(): string }) => formatTokenAmount(invoice.network, invoice.token, value);
  const addresses = chainFamilyOf(invoice.network).addresses;
  // Several transfers (a buyer who paid in parts): each once, oldest first. An unknown sender
  // (a mint's burn address) is left out.
  const joined = (values: string[]) => (values.length ? [...new Set(values)].join(" ") : null);
  const payers = invoice.payments.flatMap(({ fromAddress }) =>
    fromAddress === null || addresses.isBurn(fromAddress) ? [] : [fromAddress],
  );
  const session = invoice.checkoutSession;
  return {
    paid_at: (invoice.confirmedAt as Date).toISOString(),
    invoice_id: invoice.id,
    checkout_session_id: invoice.checkoutSessionId,
    merchant_order_id: session.merchantOrderId,
    network: invoice.network,
    token: invoice.token,
    token_amount: tokens(invoice.amountPaid),
    tx_hash: joined(invoice.payments.map((payment) => payment.txHash)),
    payer_address: joined(payers),
    currency: session.currency,
    amount: formatPrice(session.amount, session.currency),
    amount_usd: invoice.amountUsd.toFixed(2),
    rate: formatDecimal(invoice.rate),
    quote_source: invoice.quoteSource,
    refunded_amount: tokens(new Money(refunded)),
  };
}
