import { describe, expect, it } from "vitest";
import type { ReportReader } from "./report-reader";
import { openReport, reportBatchRows } from "./stream-report";

/** A reader of `total` numbered rows, failing at the read numbered `failAt` (1 is the first). */
function reader(total: number, failAt?: number): { read: ReportReader<number>; reads: () => number } {
  let reads = 0;
  const read: ReportReader<number> = async ({ take, after }) => {
    reads++;
    if (reads === failAt) throw new Error("the database went away");
    const start = after ? Number(after.id) + 1 : 0;
    const rows = Array.from({ length: Math.max(0, Math.min(take, total - start)) }, (_, i) => start + i);
    const last = rows.at(-1);
    return { rows, last: last === undefined ? null : { at: new Date(0), id: String(last) } };
  };
  return { read, reads: () => reads };
}

async function all(batches: AsyncGenerator<number[]>) {
  const rows: number[] = [];
  for await (const batch of batches) rows.push(...batch);
  return rows;
}

describe("openReport", () => {
  it("fails before the answer begins when the first read fails", async () => {
    await expect(openReport(reader(10, 1).read)).rejects.toThrow("the database went away");
  });

  it("has read the first batch once opened, and gives every row once, in order", async () => {
    const source = reader(reportBatchRows + 5);
    const batches = await openReport(source.read);
    expect(source.reads()).toBe(1);
    const rows = await all(batches);
    expect(rows).toHaveLength(reportBatchRows + 5);
    expect(rows.every((row, index) => row === index)).toBe(true);
  });

  it("gives nothing for an empty report", async () => {
    expect(await all(await openReport(reader(0).read))).toEqual([]);
  });

  it("passes on a failure of a later read to whoever streams it", async () => {
    const batches = await openReport(reader(reportBatchRows * 3, 2).read);
    await expect(all(batches)).rejects.toThrow("the database went away");
  });
});
