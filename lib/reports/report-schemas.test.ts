import { describe, expect, it } from "vitest";
import { reportQuerySchema } from "./report-schemas";

const parse = (query: Record<string, string>) => reportQuerySchema.safeParse(query);
const range = (from: string, to: string) => {
  const parsed = parse({ from, to });
  if (!parsed.success) throw new Error(parsed.error.message);
  return [parsed.data.from.toISOString(), parsed.data.to.toISOString()];
};

describe("a report's range", () => {
  it.each([
    [
      "UTC dates are UTC midnights",
      "2026-03-01",
      "2026-04-01",
      "2026-03-01T00:00:00.000Z",
      "2026-04-01T00:00:00.000Z",
    ],
    [
      "Z times",
      "2026-03-01T00:00:00Z",
      "2026-03-01T00:00:01Z",
      "2026-03-01T00:00:00.000Z",
      "2026-03-01T00:00:01.000Z",
    ],
    [
      "Berlin's midnight is 23:00 the day before",
      "2026-03-01T00:00:00+01:00",
      "2026-04-01T00:00:00+02:00",
      "2026-02-28T23:00:00.000Z",
      "2026-03-31T22:00:00.000Z",
    ],
    [
      "New York's midnight is 05:00",
      "2026-03-01T00:00:00-05:00",
      "2026-03-02T00:00:00-05:00",
      "2026-03-01T05:00:00.000Z",
      "2026-03-02T05:00:00.000Z",
    ],
    [
      "half-hour offsets",
      "2026-03-01T00:00:00+05:30",
      "2026-03-02T00:00:00+05:30",
      "2026-02-28T18:30:00.000Z",
      "2026-03-01T18:30:00.000Z",
    ],
    [
      "milliseconds kept",
      "2026-03-01T00:00:00.123Z",
      "2026-03-01T00:00:00.124Z",
      "2026-03-01T00:00:00.123Z",
      "2026-03-01T00:00:00.124Z",
    ],
    [
      "any span: a century",
      "2000-01-01",
      "2100-01-01",
      "2000-01-01T00:00:00.000Z",
      "2100-01-01T00:00:00.000Z",
    ],
  ])("%s", (_name, from, to, fromUtc, toUtc) => {
    expect(range(from, to)).toEqual([fromUtc, toUtc]);
  });

  it.each([
    ["a time without an offset", { from: "2026-03-01T00:00:00", to: "2026-04-01" }, "from"],
    ["a date with a time zone name", { from: "2026-03-01 Europe/Berlin", to: "2026-04-01" }, "from"],
    ["no to", { from: "2026-03-01" }, "to"],
    ["to equal to from", { from: "2026-03-01", to: "2026-03-01T00:00:00Z" }, "to"],
    [
      "to before from across offsets",
      { from: "2026-03-01T00:30:00+01:00", to: "2026-02-28T23:00:00Z" },
      "to",
    ],
    ["an impossible date", { from: "2026-02-30", to: "2026-04-01" }, "from"],
    ["year 0, which PostgreSQL refuses", { from: "0000-01-01", to: "0000-06-01" }, "from"],
    [
      "year 1 that an offset takes into year 0",
      { from: "0001-01-01T00:30:00+01:00", to: "0001-02-01" },
      "from",
    ],
    ["before the year 2000", { from: "1999-12-31T23:59:59Z", to: "2000-02-01" }, "from"],
  ])("%s is refused", (_name, query, param) => {
    const parsed = parse(query);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0].path).toEqual([param]);
  });

  it("defaults to the whole range as CSV, JSON a page of 1000", () => {
    expect(parse({ from: "2026-03-01", to: "2026-04-01" }).data).toMatchObject({
      format: "csv",
      page: 1,
      rows: 1000,
    });
  });
});
