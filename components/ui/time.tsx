import { formatDateTime } from "./format";

/** A moment to the second, as a <time> element (UTC, so server and browser render the same text). */
export function Time({ value }: { value: string | Date }) {
  const date = new Date(value);
  return (
    <time dateTime={date.toISOString()} className="tabular-nums">
      {formatDateTime(date, "seconds")}
    </time>
  );
}
