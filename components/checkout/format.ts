// Locale formatting for the hosted page. Amounts arrive as decimal strings and are formatted as
// strings (Intl accepts them exactly), so no float ever touches money.

/** A decimal string in the buyer's locale, keeping every digit it has (no grouping: it is sent). */
export function formatDecimal(locale: string, value: string): string {
  const digits = value.split(".")[1]?.length ?? 0;
  return new Intl.NumberFormat(locale, {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
    useGrouping: false,
  }).format(value as Intl.StringNumericLiteral);
}

/** A time left as m:ss with the locale's digits. */
export function formatCountdown(locale: string, milliseconds: number): string {
  const left = Math.max(0, milliseconds);
  const two = new Intl.NumberFormat(locale, { minimumIntegerDigits: 2, useGrouping: false });
  const one = new Intl.NumberFormat(locale, { useGrouping: false });
  return `${one.format(Math.floor(left / 60_000))}:${two.format(Math.floor((left % 60_000) / 1000))}`;
}

/**
 * A moment in the buyer's language, in UTC and saying so ("November 28, 2026 at 10:15 AM UTC"):
 * the page is rendered on the server, which cannot know the buyer's zone, and a time without its
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

/** The first and last characters of a hash or address, for a line of text. */
export function shorten(value: string): string {
  return `${value.slice(0, 10)}…${value.slice(-8)}`;
}
