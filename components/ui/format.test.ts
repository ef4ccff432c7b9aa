import { describe, expect, it } from "vitest";
import { formatDateTime, formatTokenAmountShort } from "./format";

const eth = { symbol: "ETH", decimals: 18 };
const usdc = { symbol: "USDC", decimals: 6 };
const whole = { symbol: "PTS", decimals: 0 };

describe("formatTokenAmountShort", () => {
  it.each([
    ["99.999854303971811016", eth, "99.999854 ETH"],
    ["0.008333333333333334", eth, "0.008333 ETH"],
    ["0.999999999999999999", eth, "0.999999 ETH"],
    ["10000", eth, "10000 ETH"],
    ["0", eth, "0 ETH"],
    ["0.000000000000000001", eth, "< 0.000001 ETH"],
    ["42.500000", usdc, "42.5 USDC"],
    ["25", usdc, "25 USDC"],
    ["0.000001", usdc, "0.000001 USDC"],
    ["12", whole, "12 PTS"],
  ])("%s %o → %s", (amount, token, shown) => {
    expect(formatTokenAmountShort(amount, token)).toBe(shown);
  });
});

describe("formatDateTime", () => {
  it("names the zone unless it shows the date alone", () => {
    expect(formatDateTime("2026-11-23T09:14:05Z")).toBe("Nov 23, 2026, 09:14 UTC");
    expect(formatDateTime("2026-11-23T09:14:05Z", "date")).toBe("Nov 23, 2026");
  });
});
