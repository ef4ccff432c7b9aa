import { refundReportRow } from "crypto-checkout-agent/shapes";
import type { z } from "zod";
import type { Db } from "../db/client";
import type { Prisma } from "../generated/prisma/client";
import { formatTokenAmount } from "../money/format-token-amount";
import { keysetWindow, type ReportReader } from "./report-reader";
import type { ReportRange } from "./report-schemas";

export type RefundReportRow = z.output<typeof refundReportRow>;
/** The CSV columns, in order: the row shape's keys. */
export const refundReportColumns = Object.keys(refundReportRow.shape) as (keyof RefundReportRow)[];

/**
 * The refunds report of [from, to): the organization's refunds created in the range, whatever
 * their status, oldest first, a batch at a time (one query each). No claim link: a report is read
 * by members and leaves the service as a file.
 */
export function readRefundReport(database: Db, organizationId: string, range: ReportRange) {
  const where: Prisma.RefundWhereInput = { organizationId, createdAt: { gte: range.from, lt: range.to } };
  const read: ReportReader<RefundReportRow> = async (window) => {
    const { since, after, ...order } = keysetWindow("createdAt", window, range.from);
    const refunds = await database.refund.findMany({
      where: { ...where, createdAt: { gte: since, lt: range.to }, ...(after as Prisma.RefundWhereInput) },
      ...order,
    });
    const final = refunds.at(-1);
    return {
      rows: refunds.map((refund) => ({
        created_at: refund.createdAt.toISOString(),
        refund_id: refund.id,
        invoice_id: refund.invoiceId,
        network: refund.network,
        token: refund.token,
        amount: formatTokenAmount(refund.network, refund.token, refund.amount),
        status: refund.status.toLowerCase() as RefundReportRow["status"],
        to_address: refund.toAddress,
        tx_hash: refund.txHash,
        reason: refund.reason,
      })),
      last: final ? { at: final.createdAt, id: final.id } : null,
    };
  };
  return { read, count: () => database.refund.count({ where }) };
}
