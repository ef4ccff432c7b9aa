import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { propertyRuns } from "@/scripts/test-support/property-runs";
import {
  checkPositiveDecimal,
  divideUp,
  formatAmount,
  formatDecimal,
  fromBaseUnits,
  isPricingCurrency,
  Money,
  toBaseUnits,
} from "./decimal";

describe("checkPositiveDecimal", () => {
  it.each([
    ["10", 2, null],
    ["10.5", 2, null],
    ["0.01", 2, null],
    ["999999999999999.99", 2, null],
    ["0.000000000000000001", 18, null],
    ["0", 2, "not_positive"],
    ["0.00", 2, "not_positive"],
    ["10.555", 2, "too_many_decimals"],
    ["1000000000000000", 2, "too_large"],
    ["-1", 2, "not_a_decimal_string"],
    ["+1", 2, "not_a_decimal_string"],
    ["1e3", 2, "not_a_decimal_string"],
    ["01", 2, "not_a_decimal_string"],
    [" 1", 2, "not_a_decimal_string"],
    ["1.", 2, "not_a_decimal_string"],
    [".5", 2, "not_a_decimal_string"],
    ["1,00", 2, "not_a_decimal_string"],
    ["NaN", 2, "not_a_decimal_string"],
    ["Infinity", 2, "not_a_decimal_string"],
    ["0x10", 2, "not_a_decimal_string"],
    ["", 2, "not_a_decimal_string"],
  ])("%j at scale %i -> %s", (value, scale, problem) => {
    expect(checkPositiveDecimal(value, scale)).toBe(problem);
  });
});

describe("amount conversions", () => {
  it("formats at the currency scale without floating point drift", () => {
    expect(formatAmount("0.1", 2)).toBe("0.10");
    expect(formatAmount("10", 2)).toBe("10.00");
    // 0.1 + 0.2 in floats is 0.30000000000000004
    expect(formatAmount(new Money("0.1").plus("0.2"), 18)).toBe("0.300000000000000000");
  });

  it("converts token amounts to base units and back exactly", () => {
    expect(toBaseUnits("12.345678", 6)).toBe(12_345_678n);
    expect(toBaseUnits("1", 18)).toBe(10n ** 18n);
    expect(fromBaseUnits(12_345_678n, 6)).toBe("12.345678");
    expect(fromBaseUnits(1n, 18)).toBe("0.000000000000000001");
  });

  it("rounds sub-unit amounts up so a quote never undercharges", () => {
    expect(toBaseUnits("0.0000001", 6)).toBe(1n);
  });

  it("knows the pricing currencies", () => {
    expect(isPricingCurrency("USD")).toBe(true);
    expect(isPricingCurrency("EUR")).toBe(true);
    expect(isPricingCurrency("GBP")).toBe(true);
    expect(isPricingCurrency("usd")).toBe(false);
    expect(isPricingCurrency("toString")).toBe(false);
  });
});

describe("divideUp", () => {
  it.each([
    ["100000", "3000", 18, "33.333333333333333334"],
    ["30", "3000", 18, "0.01"],
    ["10.01", "5", 0, "3"],
    ["21.5892", "3000", 18, "0.0071964"],
    ["1", "3", 6, "0.333334"],
    ["0", "7", 6, "0"],
  ])("%s / %s at %i decimals is %s", (numerator, denominator, decimals, expected) => {
    expect(divideUp(numerator, denominator, decimals).toFixed()).toBe(expected);
  });

  it("refuses a zero denominator", () => {
    expect(() => divideUp("1", "0", 6)).toThrow(RangeError);
  });
});

describe("formatDecimal", () => {
  it.each([
    ["1.000000000000000000", "1"],
    ["0.000333333333333333", "0.000333333333333333"],
    ["1e-8", "0.00000001"],
    ["12345678901234567890.5", "12345678901234567890.5"],
  ])("%s is %s", (value, expected) => {
    expect(formatDecimal(value)).toBe(expected);
  });
});

describe("sums of partial payments", () => {
  const payments = fc.array(fc.bigInt({ min: 1n, max: 10n ** 30n }), { minLength: 1, maxLength: 20 });

  it("are exact at every token precision from 0 to 18 decimals", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 18 }), payments, (decimals, units) => {
        const sum = units.reduce((total, unit) => total.plus(fromBaseUnits(unit, decimals)), new Money(0));
        const exact = units.reduce((total, unit) => total + unit, 0n);
        expect(sum.toFixed(decimals)).toBe(fromBaseUnits(exact, decimals));
        expect(toBaseUnits(sum, decimals)).toBe(exact);
      }),
      { numRuns: propertyRuns(1000) },
    );
  });
});
