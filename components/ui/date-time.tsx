const formats = {
  full: new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }),
  date: new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" }),
};

/**
 * A moment as people read it ("Nov 23, 2026, 9:10 AM UTC", or only the date where space is
 * short, as in table columns), exact in the tooltip.
 */
export function DateTime({ value, dateOnly = false }: { value: Date | string; dateOnly?: boolean }) {
  const date = typeof value === "string" ? new Date(value) : value;
  return (
    <time dateTime={date.toISOString()} title={date.toISOString()}>
      {dateOnly ? formats.date.format(date) : `${formats.full.format(date)} UTC`}
    </time>
  );
}
