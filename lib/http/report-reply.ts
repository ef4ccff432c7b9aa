import { listReport } from "../reports/list-report";
import type { ReportReader } from "../reports/report-reader";
import type { ReportQuery } from "../reports/report-schemas";
import { streamCsv } from "../reports/stream-csv";
import { openReport } from "../reports/stream-report";
import { listPage } from "../validation/list-page";
import type { Reply } from "./route";

const day = (at: Date) => at.toISOString().slice(0, 10);

/**
 * A report's answer: CSV streamed as a download (the whole range, read a batch at a time as the
 * client takes it), or a page of its rows in the list envelope.
 */
export async function reportReply<R extends Record<C, string | null>, C extends string>(
  name: string,
  query: ReportQuery,
  columns: readonly C[],
  report: { read: ReportReader<R>; count: () => Promise<number> },
): Promise<Reply | Response> {
  if (query.format === "json") {
    const { rows, total } = await listReport(report.read, report.count, query);
    return { body: listPage(rows, query, total) };
  }
  return new Response(streamCsv(columns, await openReport(report.read)), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${name}_${day(query.from)}_${day(query.to)}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
