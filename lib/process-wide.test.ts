import { describe, expect, it } from "vitest";
import { processWide } from "./process-wide";

describe("processWide", () => {
  it("creates a value once and hands every caller that one", () => {
    let created = 0;
    const create = () => {
      created += 1;
      return new Map<string, number>();
    };
    const first = processWide("process-wide-test.map", create);
    expect(processWide("process-wide-test.map", create)).toBe(first);
    expect(created).toBe(1);
    expect(processWide("process-wide-test.other", create)).not.toBe(first);
    expect(created).toBe(2);
  });

  it("keeps it on globalThis, where another copy of the module finds it", () => {
    const value = processWide("process-wide-test.shared", () => ({ n: 1 }));
    expect(
      (globalThis as Record<symbol, unknown>)[Symbol.for("crypto-checkout.process-wide-test.shared")],
    ).toBe(value);
  });
});
