import Decimal from "decimal.js";

// Money is a decimal string on every interface and `numeric` in PostgreSQL; it never passes
// through a float. This Decimal is configured wide enough for 18-decimal tokens.
export const Money = Decimal.clone({
  precision: 60,
  rounding: Decimal.ROUND_DOWN,
  toExpNeg: -60,
  toExpPos: 60,
});
export type Money = Decimal;
/** Anything a Money is made from: a decimal string, a Money, or a whole number. */
export type MoneyValue = Decimal.Value;

/** ISO 4217 minor units of the pricing currencies we accept. */
export const pricingCurrencies = { USD: 2, EUR: 2, GBP: 2 } as const;
export type PricingCurrency = keyof typeof pricingCurrencies;

export const isPricingCurrency = (value: string): value is PricingCurrency =>
  Object.hasOwn(pricingCurrencies, value);

const plainDecimal = /^(0|[1-9]\d*)(\.\d+)?$/;

export type DecimalProblem = "not_a_decimal_string" | "too_many_decimals" | "not_positive" | "too_large";

/**
 * Checks a decimal string as an API accepts it: digits with an optional fraction, no sign,
 * exponent, spaces or leading zeros, at most `scale` fraction digits, greater than zero and
 * below `maxIntegerDigits` integer digits. Returns the problem, or null when it is fine.
 */
export function checkPositiveDecimal(
  value: string,
  scale: number,
  maxIntegerDigits = 15,
): DecimalProblem | null {
  const match = plainDecimal.exec(value);
  if (!match) return "not_a_decimal_string";
  if ((match[2]?.length ?? 1) - 1 > scale) return "too_many_decimals";
  if (match[1].length > maxIntegerDigits) return "too_large";
  // A plain decimal string is zero exactly when it has no other digit: no Decimal to build.
  if (!/[1-9]/.test(value)) return "not_positive";
  return null;
}

/** The canonical string of an amount at a fixed scale: "10" at scale 2 is "10.00". */
export function formatAmount(value: Decimal.Value, scale: number): string {
  return new Money(value).toFixed(scale, Decimal.ROUND_DOWN);
}

/** A decimal at its own precision without trailing zeros or exponent: "1.000" and 1e-8 are "1" and "0.00000001". */
export function formatDecimal(value: { toString(): string }): string {
  return new Money(value.toString()).toFixed();
}

/** Token base units (an integer, as on chain) from a decimal token amount; rounds up so a quote never undercharges. */
export function toBaseUnits(amount: Decimal.Value, decimals: number): bigint {
  return BigInt(
    new Money(amount).mul(new Money(10).pow(decimals)).toDecimalPlaces(0, Decimal.ROUND_UP).toFixed(0),
  );
}

/** The decimal token amount of an integer number of base units. */
export function fromBaseUnits(units: bigint, decimals: number): string {
  return new Money(units.toString()).div(new Money(10).pow(decimals)).toFixed(decimals);
}

/** The integer numerator of a finite decimal scaled by 10^scale (exact: `scale` covers its digits). */
function scaledInteger(value: Money, scale: number): bigint {
  return BigInt(value.mul(new Money(10).pow(scale)).toFixed(0));
}

/**
 * `numerator / denominator` rounded up at `decimals` places, exactly: both are finite decimals, so
 * the division is done on integers. A rounded-down long division could land on a unit boundary
 * just under the true quotient and undercharge by one unit.
 */
export function divideUp(numerator: Decimal.Value, denominator: Decimal.Value, decimals: number): Money {
  const top = new Money(numerator);
  const bottom = new Money(denominator);
  if (!bottom.gt(0) || top.isNeg()) throw new RangeError("divideUp needs a positive denominator");
  const scale = Math.max(top.decimalPlaces(), bottom.decimalPlaces());
  const units = scaledInteger(top, scale + decimals);
  const by = scaledInteger(bottom, scale);
  const quotient = (units + by - 1n) / by;
  return new Money(quotient.toString()).div(new Money(10).pow(decimals));
}

/** A price in its currency's minor units (2 for an unknown currency). */
export function formatPrice(amount: { toString(): string }, currency: string): string {
  return formatAmount(amount.toString(), isPricingCurrency(currency) ? pricingCurrencies[currency] : 2);
}
