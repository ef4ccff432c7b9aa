const format = new Intl.DateTimeFormat("en-US", {
  dateStyle: "medium",
  timeStyle: "short",
  timeZone: "UTC",
});

/** A moment as people read it ("Nov 23, 2026, 9:10 AM UTC"), exact in the tooltip. */
export function DateTime({ value }: { value: Date | string }) {
  const date = typeof value === "string" ? new Date(value) : value;
  return (
    <time dateTime={date.toISOString()} title={date.toISOString()}>
      {format.format(date)} UTC
    </time>
  );
}
