import { describe, expect, it } from "vitest";
import { propertyRuns, propertyScale } from "./property-runs";

describe("propertyScale", () => {
  it.each([
    [undefined, 1],
    ["", 1],
    ["1", 1],
    ["0.25", 0.25],
  ])("reads %j as %d", (value, scale) => {
    expect(propertyScale(value)).toBe(scale);
  });

  it.each(["0", "-0.5", "1.5", "all", "NaN"])("refuses %j, naming the variable", (value) => {
    expect(() => propertyScale(value)).toThrow(
      `TEST_PROPERTY_SCALE must be a number above 0 and at most 1 (got "${value}")`,
    );
  });
});

describe("propertyRuns", () => {
  it.each([
    [2000, 1, 2000],
    [2000, 0.25, 500],
    [500, 0.25, 125],
    [3, 0.25, 1],
    [1000, 0.001, 1],
  ])("runs %d cases at scale %d as %d", (full, scale, runs) => {
    expect(propertyRuns(full, scale)).toBe(runs);
  });
});
