import { describe, expect, it } from "vitest";
import { announcedEffectiveAt } from "./announced-effective-at";

const minute = 60_000;
const day = 24 * 60 * minute;
const created = new Date("2026-11-01T00:00:00Z");
const at = (ms: number) => new Date(created.getTime() + ms);
const byKey = { proposedByKind: "api_key", decidedByUserId: null, createdAt: created, effectiveAt: at(day) };

describe("announcedEffectiveAt", () => {
  it.each<
    [string, Parameters<typeof announcedEffectiveAt>[0], (Date | null)[], Date, Date | "unannounced" | null]
  >([
    ["a key's change told on time, when due", byKey, [at(1_000), at(2_000)], at(day), null],
    ["a key's change nobody was told of", byKey, [null, null], at(2 * day), "unannounced"],
    ["a key's change told to one owner of two", byKey, [null, at(1_000)], at(day), null],
    ["a key's change told a day late: a day from then", byKey, [at(day)], at(day), at(2 * day)],
    ["a key's change told late, once that delay passed", byKey, [at(day)], at(2 * day), null],
    [
      "a key's change already held: the same time again",
      { ...byKey, effectiveAt: at(2 * day) },
      [at(day)],
      at(2 * day - 1),
      at(2 * day),
    ],
    ["a key's change told 59 s late keeps its time", byKey, [at(59_000)], at(day), null],
    ["an owner's change, whatever the mail", { ...byKey, proposedByKind: "owner" }, [null], at(day), null],
    ["a change an owner confirmed", { ...byKey, decidedByUserId: "user_1" }, [null], at(day), null],
    ["a change from before announcements were recorded", byKey, [], at(day), null],
  ])("%s", (_name, change, sentAts, now, expected) => {
    expect(announcedEffectiveAt(change, sentAts, day, now)).toEqual(expected);
  });
});
