import { formatDateTime, type Precision } from "./format";

/** A moment as a <time> element, exact in the tooltip. UTC, so server and browser render the same text. */
export function DateTime({ value, precision = "minutes" }: { value: Date | string; precision?: Precision }) {
  const date = new Date(value);
  return (
    <time dateTime={date.toISOString()} title={date.toISOString()} className="tabular-nums">
      {formatDateTime(date, precision)}
    </time>
  );
}
