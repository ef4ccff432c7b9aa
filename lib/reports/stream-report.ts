import type { ReportCursor, ReportReader } from "./report-reader";

/** Rows per read: enough to amortise a read's few queries, few enough that memory stays flat. */
export const reportBatchRows = 1000;

/**
 * A whole report, a batch of rows at a time, each read only when the previous one was consumed
 * (keyset on the row's time and id, so a batch costs the same at any depth and rows added
 * meanwhile never shift it).
 */
export async function* streamReport<R>(read: ReportReader<R>): AsyncGenerator<R[]> {
  let after: ReportCursor | undefined;
  for (;;) {
    const { rows, last } = await read({ take: reportBatchRows, after });
    if (rows.length) yield rows;
    if (!last || rows.length < reportBatchRows) return;
    after = last;
  }
}

/**
 * The report with its first batch already read: a read that fails (the database down, a range it
 * refuses) fails here, before an answer has begun, and is answered as an error rather than as a
 * 200 cut short after its header, which a merchant's tooling could keep as a report of no rows.
 */
export async function openReport<R>(read: ReportReader<R>): Promise<AsyncGenerator<R[]>> {
  const batches = streamReport(read);
  const first = await batches.next();
  return (async function* () {
    if (first.done) return;
    yield first.value;
    yield* batches;
  })();
}
