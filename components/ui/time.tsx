const format = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  timeZone: "UTC",
});

/**
 * A moment as "23 Nov 2026, 09:12:04 UTC". In UTC, so the server's rendering and the browser's
 * agree (no hydration mismatch) and times line up with logs.
 */
export function Time({ value }: { value: string | Date }) {
  const date = new Date(value);
  return (
    <time dateTime={date.toISOString()} className="tabular-nums">
      {format.format(date)} UTC
    </time>
  );
}
