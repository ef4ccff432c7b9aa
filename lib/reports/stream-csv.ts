import { log } from "../log";
import { formatCsvHeader, formatCsvRow } from "./format-csv-row";

const rowsPerChunk = 100;

/**
 * A CSV document (UTF-8, a header record, then `batches`' rows) as a byte stream that reads the
 * next batch only when its reader asks for more: a slow client holds one batch in memory, not
 * the report. A reader that goes away stops the reading.
 */
export function streamCsv<C extends string>(
  columns: readonly C[],
  batches: AsyncGenerator<Readonly<Record<C, string | null>>[]>,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let headerSent = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!headerSent) {
          headerSent = true;
          controller.enqueue(encoder.encode(formatCsvHeader(columns)));
          return;
        }
        let next: IteratorResult<Readonly<Record<C, string | null>>[]>;
        try {
          next = await batches.next();
        } catch (error) {
          // The answer has begun (its status sent): the download ends short, and is logged.
          log.error({ err: error, alert: true }, "a CSV report stopped before its end");
          controller.error(error);
          return;
        }
        if (next.done) {
          controller.close();
          return;
        }
        // A few kilobytes a chunk: a batch's text as one string would be a large object, which V8
        // frees only in a full collection, so a long export would pile them up until one runs.
        for (let start = 0; start < next.value.length; start += rowsPerChunk) {
          const rows = next.value.slice(start, start + rowsPerChunk);
          controller.enqueue(encoder.encode(rows.map((row) => formatCsvRow(columns, row)).join("")));
        }
      },
      async cancel() {
        await batches.return(undefined);
      },
    },
    { highWaterMark: 1 },
  );
}
