// Locale formatting for the hosted page. Amounts arrive as decimal strings and are formatted as
// strings (Intl accepts them exactly), so no float ever touches money.

export { formatDateTime, formatDecimal } from "@/lib/i18n/format";

/** A time left as m:ss with the locale's digits. */
export function formatCountdown(locale: string, milliseconds: number): string {
  const left = Math.max(0, milliseconds);
  const two = new Intl.NumberFormat(locale, { minimumIntegerDigits: 2, useGrouping: false });
  const one = new Intl.NumberFormat(locale, { useGrouping: false });
  return `${one.format(Math.floor(left / 60_000))}:${two.format(Math.floor((left % 60_000) / 1000))}`;
}

/** The first and last characters of a hash or address, for a line of text. */
export function shorten(value: string): string {
  return `${value.slice(0, 10)}…${value.slice(-8)}`;
}
