import { describe, expect, it } from "vitest";
import { chooseLogQuery } from "./choose-log-query";

describe("chooseLogQuery", () => {
  it.each([
    // Few addresses: one filtered call, and no other token's traffic to download.
    { watched: 20, blocks: 1n, logsPerBlock: undefined, expected: "by-address" },
    { watched: 20, blocks: 1n, logsPerBlock: 3, expected: "by-address" },
    // One call either way: 500 addresses sent weigh more than 3 logs received.
    { watched: 500, blocks: 1n, logsPerBlock: 3, expected: "all" },
    // Many addresses on a head: one unfiltered call instead of one per 500 addresses.
    { watched: 100_000, blocks: 1n, logsPerBlock: 3, expected: "all" },
    { watched: 1_100, blocks: 2n, logsPerBlock: 0, expected: "all" },
    // Density not learnt yet: tried on a short range, not on a long catch-up.
    { watched: 1_100, blocks: 5n, logsPerBlock: undefined, expected: "all" },
    { watched: 100_000, blocks: 2_000n, logsPerBlock: undefined, expected: "by-address" },
    // A busy token over a long range: more logs than a provider answers at once.
    { watched: 100_000, blocks: 2_000n, logsPerBlock: 300, expected: "by-address" },
    // A busy token with few watched addresses: the filter saves the download.
    { watched: 1_000, blocks: 10n, logsPerBlock: 300, expected: "by-address" },
    // A refused unfiltered read marks the density infinite: filtered until the set is read whole.
    { watched: 100_000, blocks: 1n, logsPerBlock: Number.POSITIVE_INFINITY, expected: "by-address" },
  ] as const)("$watched watched over $blocks blocks at $logsPerBlock logs a block: $expected", (row) => {
    expect(chooseLogQuery({ ...row, batchSize: 500 })).toBe(row.expected);
  });
});
