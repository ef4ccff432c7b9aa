import { z } from "zod";
import { listOf, paymentReportPage, refundReportRow, reportFormats } from "../shapes";
import { defineContract, read, toolOf } from "./contract";

const readRow = { row: "reports.read", access: "read", role: "member" } as const;

/** The inputs of both reports: a half-open range [from, to) and the format. */
export const reportQuery = z.object({
  from: z
    .string()
    .max(40)
    .describe(
      "Start of the range, included: an ISO 8601 time with its offset (2026-03-01T00:00:00+01:00) or a UTC date (2026-03-01)",
    ),
  to: z.string().max(40).describe("End of the range, excluded, as from"),
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

/** Rows a tool answers a page: what a model reads comfortably; more is the CSV's job. */
export const reportToolRows = 100;

/** What a report's tool and command say of it: a title, what it is, what one row is, and its columns. */
type ReportWords = { title: string; what: string; row: string; columns: string };

/** The MCP tool `service_reports_{name}` and the command `reports:{name}` of the report at /api/private/reports/{name}. */
const reportDoors = <const N extends string>(name: N, words: ReportWords) => ({
  tool: {
    name: `service_reports_${name}` as const,
    title: words.title,
    description: `${words.what}: ${words.row} (${words.columns}). Answers up to ${reportToolRows} rows a page; for a whole month or a spreadsheet, give the user the CSV link the result names (GET /api/private/reports/${name}?format=csv with the API key, or Export CSV in the dashboard) rather than paging through.`,
    annotations: read,
    omit: ["format"] as const,
    narrow: {
      rows: z
        .number()
        .int()
        .min(1)
        .max(reportToolRows)
        .optional()
        .describe(`Rows per page, 1-${reportToolRows} (default ${reportToolRows})`),
    },
    differs: {
      format: "a tool answers rows as JSON; the CSV of the range is the link in its note",
      rows: `a page a model can read: at most ${reportToolRows} rows`,
    },
  },
  cli: {
    command: `reports:${name}` as const,
    description: `Download the ${name} report (${words.row}) as a CSV file.`,
    example: `crypto-checkout reports:${name} --from 2026-03-01 --to 2026-04-01 --out ${name}.csv`,
    omit: ["format", "page", "rows"] as const,
    add: {
      out: {
        value: "file",
        description: "Where to write the CSV (default: the name the service gives, here)",
      },
    },
    differs: {
      format: "the command downloads the CSV; reading rows as JSON is the MCP tool's or REST's",
      page: "the CSV is the whole range, in one download",
      rows: "the CSV is the whole range, in one download",
      out: "the file the CSV is written to",
    },
  },
});

/** The contract of the report at /api/private/reports/{name} whose JSON is `page`, with its tool and command. */
const reportContract = <const N extends string, const O extends string, P extends z.ZodObject>(
  name: N,
  operationId: O,
  page: P,
  words: ReportWords,
) =>
  defineContract({
    operationId,
    method: "get",
    path: `/api/private/reports/${name}`,
    input: { query: reportQuery },
    result: page,
    authority: readRow,
    ...reportDoors(name, words),
  });

export const reportPayments = reportContract("payments", "reportPayments", paymentReportPage, {
  title: "Payments report (the books)",
  what: "The merchant's books",
  row: "one row per invoice confirmed in [from, to)",
  columns:
    "paid_at, invoice and session ids, merchant order id, network, token, token amount received, transaction hash, payer, the session's amount and currency, the locked quote's USD amount, rate and source, and the amount refunded so far",
});
export const reportRefunds = reportContract("refunds", "reportRefunds", listOf(refundReportRow), {
  title: "Refunds report",
  what: "What went back to buyers",
  row: "one row per refund created in [from, to), whatever its status",
  columns:
    "created_at, refund and invoice ids, network, token, amount in the token, status, destination address, transaction hash, reason; never a claim link",
});

/** What a report's tool result says besides its rows: more pages, and where the whole CSV is. */
export function reportNote(page: { page: number; total: number; hasMore: boolean }, csvUrl: string) {
  const more = page.hasMore ? ` More rows: call again with page ${page.page + 1}, or better,` : " As a file,";
  return `${page.total} rows in the range.${more} download the CSV (whole range, for spreadsheets): GET ${csvUrl} with the API key as Authorization: Bearer, or the dashboard's Export CSV.`;
}

export const reportContracts = [reportPayments, reportRefunds] as const;
/** One of the reports' contracts. */
export type ReportContract = (typeof reportContracts)[number];
export const reportTools = [toolOf(reportPayments), toolOf(reportRefunds)] as const;
