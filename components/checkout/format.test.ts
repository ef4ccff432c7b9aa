import { describe, expect, it } from "vitest";
import { formatDateTime } from "./format";

describe("formatDateTime", () => {
  it.each([
    ["en", "November 28, 2026 at 10:05 AM UTC"],
    ["de", "28. November 2026 um 10:05 UTC"],
    ["ja", "2026年11月28日 10:05 UTC"],
  ])("names the zone in %s", (locale, text) => {
    expect(formatDateTime(locale, "2026-11-28T10:05:30Z")).toBe(text);
  });
});
