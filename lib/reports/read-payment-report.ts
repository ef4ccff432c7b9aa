import { paymentReportRow } from "crypto-checkout-agent/shapes";
import type { z } from "zod";
import { chainFamilyOf } from "../config";
import { type Db, sqlPool } from "../db/client";
import { formatDecimal, formatPrice } from "../money/decimal";
import { formatTokenAmount } from "../money/format-token-amount";
import type { ReportReader } from "./report-reader";
import type { ReportRange } from "./report-schemas";

export type PaymentReportRow = z.output<typeof paymentReportRow>;
/** The CSV columns, in order: the row shape's keys. */
export const paymentReportColumns = Object.keys(paymentReportRow.shape) as (keyof PaymentReportRow)[];

type Row = {
  id: string;
  checkoutSessionId: string;
  network: string;
  token: string;
  amountPaid: string;
  amountUsd: string;
  rate: string;
  quoteSource: string;
  confirmedAt: Date;
  merchantOrderId: string | null;
  amount: string;
  currency: string;
  txHashes: string[] | null;
  payers: (string | null)[] | null;
  refunded: string;
};

// One statement a batch, on the pool under Prisma (lib/db/client.ts sqlPool): a report reads
// every row of a range, and the ORM's objects cost several times the rows' own size. The keyset
// lower bound is the cursor's time itself, so the index on (organizationId, confirmedAt, id) starts
// each batch where the last ended instead of at `from`.
const batchQuery = `
  SELECT i."id", i."checkoutSessionId", i."network", i."token", i."amountPaid"::text AS "amountPaid",
         i."amountUsd"::text AS "amountUsd", i."rate"::text AS "rate", i."quoteSource", i."confirmedAt",
         s."merchantOrderId", s."amount"::text AS "amount", s."currency",
         p."txHashes", p."payers",
         COALESCE((SELECT SUM(r."amount") FROM "Refund" r
                    WHERE r."invoiceId" = i."id" AND r."organizationId" = i."organizationId"
                      AND r."status" = 'SUCCEEDED'), 0)::text AS "refunded"
    FROM "Invoice" i
    JOIN "CheckoutSession" s ON s."id" = i."checkoutSessionId"
    LEFT JOIN LATERAL (
      SELECT array_agg(pay."txHash" ORDER BY pay."createdAt", pay."logIndex") AS "txHashes",
             array_agg(pay."fromAddress" ORDER BY pay."createdAt", pay."logIndex") AS "payers"
        FROM "Payment" pay
       WHERE pay."invoiceId" = i."id" AND pay."status" <> 'REORGED') p ON true
   WHERE i."organizationId" = $1 AND i."status" = 'CONFIRMED'
     AND i."confirmedAt" >= $2 AND i."confirmedAt" < $3
     AND ($4::text IS NULL OR (i."confirmedAt", i."id") > ($2, $4))
   ORDER BY i."confirmedAt", i."id"
   LIMIT $5 OFFSET $6`;

/**
 * The payments report of [from, to): the organization's confirmed invoices whose confirmation falls
 * in the range, in confirmation order, a batch at a time. `count` is how many there are.
 */
export function readPaymentReport(database: Db, organizationId: string, range: ReportRange) {
  const read: ReportReader<PaymentReportRow> = async ({ take, after, skip }) => {
    const { rows } = await sqlPool(database).query<Row>(batchQuery, [
      organizationId,
      after ? after.at : range.from,
      range.to,
      after?.id ?? null,
      take,
      skip ?? 0,
    ]);
    const final = rows.at(-1);
    return { rows: rows.map(paymentRow), last: final ? { at: final.confirmedAt, id: final.id } : null };
  };
  const count = () =>
    database.invoice.count({
      where: { organizationId, status: "CONFIRMED", confirmedAt: { gte: range.from, lt: range.to } },
    });
  return { read, count };
}

function paymentRow(row: Row): PaymentReportRow {
  const tokens = (value: string) => formatTokenAmount(row.network, row.token, value);
  const { addresses } = chainFamilyOf(row.network);
  // Several transfers (a buyer who paid in parts): each once, oldest first. An unknown sender
  // (a mint's burn address) is left out.
  const joined = (values: string[]) => (values.length ? [...new Set(values)].join(" ") : null);
  const payers = (row.payers ?? []).filter(
    (address): address is string => address !== null && !addresses.isBurn(address),
  );
  return {
    paid_at: row.confirmedAt.toISOString(),
    invoice_id: row.id,
    checkout_session_id: row.checkoutSessionId,
    merchant_order_id: row.merchantOrderId,
    network: row.network,
    token: row.token,
    token_amount: tokens(row.amountPaid),
    tx_hash: joined(row.txHashes ?? []),
    payer_address: joined(payers),
    currency: row.currency,
    amount: formatPrice(row.amount, row.currency),
    amount_usd: formatPrice(row.amountUsd, "USD"),
    rate: formatDecimal(row.rate),
    quote_source: row.quoteSource,
    refunded_amount: tokens(row.refunded),
  };
}
