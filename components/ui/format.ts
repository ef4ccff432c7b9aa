// How the dashboard writes amounts and times: decimals formatted from their strings (never through
// a float) and UTC, since a server-rendered page cannot know the reader's time zone.

const fiat = new Set(["USD", "EUR", "GBP"]);

/** Most fraction digits a token amount shows; the exact value is in its title and on copy (TokenAmount). */
export const maxShownTokenDecimals = 6;

/**
 * A token amount as people read it: at most the token's decimals and never more than six
 * (rounded down, so a balance is never overstated), trailing zeros dropped:
 * "99.999854303971811016" ETH → "99.999854 ETH", "42.500000" USDC → "42.5 USDC". A non-zero
 * amount too small to show reads "< 0.000001 ETH".
 */
export function formatTokenAmountShort(
  amount: { toString(): string },
  token: { symbol: string; decimals: number },
): string {
  const digits = Math.min(token.decimals, maxShownTokenDecimals);
  const format = (value: string) =>
    new Intl.NumberFormat("en-US", {
      maximumFractionDigits: digits,
      roundingMode: "trunc",
      useGrouping: false,
    }).format(value as Intl.StringNumericLiteral);
  const text = amount.toString();
  const shown = format(text);
  if (/^0(\.0*)?$/.test(shown) && /[1-9]/.test(text))
    return `< ${format(`${10 ** -digits}`)} ${token.symbol}`;
  return `${shown} ${token.symbol}`;
}

/** "1234.5", "USD" → "$1,234.50". */
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
