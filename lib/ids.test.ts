import { describe, expect, it } from "vitest";
import { hasIdPrefix, idPrefixes, newId, randomBase62 } from "./ids";

describe("ids", () => {
  it.each(Object.entries(idPrefixes))("%s ids carry the %s_ prefix", (kind, prefix) => {
    const id = newId(kind as keyof typeof idPrefixes);
    expect(id.startsWith(`${prefix}_`)).toBe(true);
    expect(id.slice(prefix.length + 1)).toMatch(/^[0-9A-Za-z]{24}$/);
    expect(hasIdPrefix(kind as keyof typeof idPrefixes, id)).toBe(true);
  });

  it("never repeats across many draws", () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => newId("checkoutSession")));
    expect(ids.size).toBe(10_000);
  });

  it("draws ids of every length, distinct, across many refills of its random block", () => {
    // 4,096 bytes a block: these draws span about 160 blocks.
    const drawn = Array.from({ length: 20_000 }, (_, index) => randomBase62(1 + (index % 64)));
    expect(drawn.map((value) => value.length)).toEqual(drawn.map((_, index) => 1 + (index % 64)));
    expect(drawn.join("")).toMatch(/^[0-9A-Za-z]+$/);
    const long = drawn.filter((value) => value.length >= 16);
    expect(new Set(long).size).toBe(long.length);
  });

  it("uses every base62 character with roughly equal frequency", () => {
    const counts = new Map<string, number>();
    for (const char of randomBase62(62_000)) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).toBe(62);
    for (const count of counts.values()) expect(count).toBeGreaterThan(700);
  });

  it("rejects ids of another kind or shape", () => {
    expect(hasIdPrefix("checkoutSession", newId("invoice"))).toBe(false);
    expect(hasIdPrefix("checkoutSession", "ycs_short")).toBe(false);
    expect(hasIdPrefix("checkoutSession", `ycs_${"a".repeat(23)}!`)).toBe(false);
  });
});
