import { describe, expect, it } from "vitest";
import { shareRecentReads } from "./share-recent-reads";

/** A read that answers its call's number, or fails the calls listed. */
function counted(failing: number[] = []) {
  let calls = 0;
  return {
    read: () => {
      calls += 1;
      return failing.includes(calls)
        ? Promise.reject(new Error(`read ${calls} failed`))
        : Promise.resolve(calls);
    },
    calls: () => calls,
  };
}

describe("shareRecentReads", () => {
  it.each([
    {
      name: "a second caller within the time shares the first read",
      at: [0, 999],
      keys: ["a", "a"],
      values: [1, 1],
      calls: 1,
    },
    {
      name: "a caller once the time is over reads again",
      at: [0, 1000],
      keys: ["a", "a"],
      values: [1, 2],
      calls: 2,
    },
    { name: "another key reads on its own", at: [0, 10], keys: ["a", "b"], values: [1, 2], calls: 2 },
  ])("$name", async ({ at, keys, values, calls }) => {
    let now = 0;
    const share = shareRecentReads<number>(1000, () => now);
    const source = counted();
    const answers: number[] = [];
    for (const [index, key] of keys.entries()) {
      now = at[index] as number;
      answers.push(await share(key, source.read).value);
    }
    expect(answers).toEqual(values);
    expect(source.calls()).toBe(calls);
  });

  it("a caller that joined a failed read reads again itself; the first caller gets the failure", async () => {
    const share = shareRecentReads<number>(1000, () => 0);
    const source = counted([1]);
    const first = share("a", source.read);
    const joined = share("a", source.read);
    expect(joined.shared).toBe(true);
    await expect(first.value).rejects.toThrow("read 1 failed");
    await expect(joined.value).resolves.toBe(2);
    // The failed read is not kept: the next caller reads anew.
    await expect(share("a", source.read).value).resolves.toBe(3);
  });

  it("a fresh read replaces the shared one for later callers", async () => {
    const share = shareRecentReads<number>(1000, () => 0);
    const source = counted();
    expect(await share("a", source.read).value).toBe(1);
    const fresh = share("a", source.read, { fresh: true });
    expect(fresh.shared).toBe(false);
    expect(await fresh.value).toBe(2);
    expect(await share("a", source.read).value).toBe(2);
  });
});
