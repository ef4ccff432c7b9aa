import { z } from "zod";
import { listOf, paymentReportRow, refundReportRow, reportFormats } from "../shapes";
import { defineContract } from "./contract";

const readRow = { row: "reports.read", access: "read", role: "member" } as const;

/** The inputs of both reports: a half-open range [from, to) and the format. */
export const reportQuery = z.object({
  from: z
    .string()
    .max(40)
    .describe(
      "Start of the range, included: an ISO 8601 time with its offset (2026-03-01T00:00:00+01:00) or a UTC date (2026-03-01)",
    ),
  to: z.string().max(40).describe("End of the range, excluded, as from; at most 366 days after from"),
  format: z
    .enum(reportFormats)
    .optional()
    .describe("csv (default; the whole range in one stream) or json (a page of rows)"),
  page: z
    .number()
    .int()
    .min(1)
    .max(1_000_000)
    .optional()
    .describe("JSON only: page number, from 1 (default 1)"),
  rows: z
    .number()
    .int()
    .min(1)
    .max(1000)
    .optional()
    .describe("JSON only: rows per page, 1-1000 (default 1000)"),
});

/** The contract of a report of `rows` at /api/private/reports/{name}. */
const reportContract = <const N extends string, const O extends string, R extends z.ZodType>(
  name: N,
  operationId: O,
  row: R,
) =>
  defineContract({
    operationId,
    method: "get",
    path: `/api/private/reports/${name}`,
    input: { query: reportQuery },
    result: listOf(row),
    authority: readRow,
  });

export const reportPayments = reportContract("payments", "reportPayments", paymentReportRow);
export const reportRefunds = reportContract("refunds", "reportRefunds", refundReportRow);

export const reportContracts = [reportPayments, reportRefunds];
