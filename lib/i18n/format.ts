// Locale formatting shared by the buyer's pages and emails. Amounts arrive as decimal strings and
// are formatted as strings (Intl accepts them exactly), so no float ever touches money.

/** A decimal string in the buyer's locale, keeping every digit it has (no grouping: it is sent). */
export function formatDecimal(locale: string, value: string): string {
  const digits = value.split(".")[1]?.length ?? 0;
  return new Intl.NumberFormat(locale, {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
    useGrouping: false,
  }).format(value as Intl.StringNumericLiteral);
}

/**
 * A moment in the buyer's language, in UTC and saying so ("November 28, 2026 at 10:15 AM UTC"):
 * pages are rendered on the server and emails read anywhere, neither knowing the buyer's zone, and a time without its
 * zone would be read as local.
 */
export function formatDateTime(locale: string, iso: string): string {
  return new Intl.DateTimeFormat(locale, {
    year: "numeric",
    month: "long",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZone: "UTC",
    timeZoneName: "short",
  }).format(new Date(iso));
}
