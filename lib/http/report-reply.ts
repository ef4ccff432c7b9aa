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
 * client takes it), or a page of its rows in the list envelope, with `envelope`'s fields beside
 * them (the CSV's columns stay the contract's).
 */
export async function reportReply<R extends Record<C, string | null>, C extends string>(
  name: string,
  query: ReportQuery,
  columns: readonly C[],
  report: { read: ReportReader<R>; count: () => Promise<number> },
  envelope: () => Promise<Record<string, unknown>> = async () => ({}),
): Promise<Reply | Response> {
  if (query.format === "json") {
    const [{ rows, total }, extra] = await Promise.all([
      listReport(report.read, report.count, query),
      envelope(),
    ]);
    return { body: { ...listPage(rows, query, total), ...extra } };
  }
  return new Response(streamCsv(columns, await openReport(report.read)), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${name}_${day(query.from)}_${day(query.to)}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
