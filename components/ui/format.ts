// How the dashboard writes amounts and times: exact decimals (never through a float) and UTC,
// since a server-rendered page cannot know the reader's time zone.

const fiat = new Set(["USD", "EUR", "GBP"]);

/** "1234.5", "USD" → "$1,234.50"; token amounts keep every digit: "25.000000 USDC". */
export function formatMoney(amount: { toString(): string }, currency: string): string {
  const text = amount.toString();
  if (!fiat.has(currency)) return `${text} ${currency}`;
  return new Intl.NumberFormat("en-US", { style: "currency", currency }).format(
    text as unknown as number, // Intl formats decimal strings exactly
  );
}

const formats = {
  date: new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" }),
  minutes: new Intl.DateTimeFormat("en-US", {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone: "UTC",
    hourCycle: "h23",
  }),
  seconds: new Intl.DateTimeFormat("en-US", {
    dateStyle: "medium",
    timeStyle: "medium",
    timeZone: "UTC",
    hourCycle: "h23",
  }),
};

export type Precision = keyof typeof formats;

/**
 * "Nov 23, 2026, 09:14 UTC"; with seconds where retries seconds apart must be told apart; the
 * date alone ("Nov 23, 2026") where space is short, as in table columns.
 */
export function formatDateTime(value: Date | string, precision: Precision = "minutes"): string {
  const text = formats[precision].format(new Date(value));
  return precision === "date" ? text : `${text} UTC`;
}
