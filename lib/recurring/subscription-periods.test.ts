import { describe, expect, it } from "vitest";
import { periodStart, type RecurringInterval } from "./subscription-periods";

// anchor, interval, count, n -> start of period n (UTC)
const table: [string, RecurringInterval, number, number, string][] = [
  ["2027-01-31T10:00:00.000Z", "month", 1, 1, "2027-02-28T10:00:00.000Z"],
  ["2027-01-31T10:00:00.000Z", "month", 1, 2, "2027-03-31T10:00:00.000Z"],
  ["2028-01-31T10:00:00.000Z", "month", 1, 1, "2028-02-29T10:00:00.000Z"],
  ["2028-01-31T10:00:00.000Z", "month", 1, 3, "2028-04-30T10:00:00.000Z"],
  ["2027-11-30T00:00:00.000Z", "month", 3, 1, "2028-02-29T00:00:00.000Z"],
  ["2027-12-15T08:30:00.000Z", "month", 1, 1, "2028-01-15T08:30:00.000Z"],
  ["2028-02-29T12:00:00.000Z", "year", 1, 1, "2029-02-28T12:00:00.000Z"],
  ["2028-02-29T12:00:00.000Z", "year", 1, 4, "2032-02-29T12:00:00.000Z"],
  ["2027-01-01T00:00:00.000Z", "week", 2, 1, "2027-01-15T00:00:00.000Z"],
  ["2027-01-01T00:00:00.000Z", "day", 1, 0, "2027-01-01T00:00:00.000Z"],
  ["2027-03-01T06:00:00.000Z", "day", 12, 2, "2027-03-25T06:00:00.000Z"],
];

describe("periodStart", () => {
  it.each(table)("%s + %s×%i, period %i -> %s", (anchor, interval, count, n, expected) => {
    expect(periodStart(new Date(anchor), interval, count, n).toISOString()).toBe(expected);
  });
});
