import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { followChainHead } from "./follow-chain-head";

/** A node whose head is whatever the test sets (`undefined`: the read fails), counting reads. */
function fakeNode() {
  const node = {
    head: 10n as bigint | undefined,
    reads: 0,
    getBlockNumber: async () => {
      node.reads += 1;
      if (node.head === undefined) throw new Error("node down");
      return node.head;
    },
  };
  return node;
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("followChainHead", () => {
  it("wakes every waiter that saw an older head with one read a poll", async () => {
    const node = fakeNode();
    const head = followChainHead(node, 100);
    const woken: string[] = [];
    const waits = ["a", "b", "c"].map((name) => head.next(undefined, 60_000).then(() => woken.push(name)));
    await vi.advanceTimersByTimeAsync(100);
    await Promise.all(waits);
    expect(woken.sort()).toEqual(["a", "b", "c"]);
    expect(node.reads).toBe(1);
    expect(head.current()).toBe(10n);

    // Seen 10: the same head does not wake them; the next block does, still one read a poll.
    const later = [head.next(10n, 60_000), head.next(10n, 60_000)];
    await vi.advanceTimersByTimeAsync(300);
    expect(node.reads).toBe(4);
    node.head = 11n;
    await vi.advanceTimersByTimeAsync(100);
    await Promise.all(later);
    expect(node.reads).toBe(5);
    expect(head.current()).toBe(11n);
  });

  it.each([
    ["a head lower than the one seen (a node restarted)", 3n, true],
    ["the head seen", 10n, false],
    ["a failed read (each waiter then looks, as it would have polled)", undefined, true],
  ] as const)("%s: the waiter woken at once is %s", async (_, read, wakes) => {
    const node = fakeNode();
    const head = followChainHead(node, 100);
    node.head = read;
    let woken = false;
    const wait = head.next(10n, 1000).then(() => {
      woken = true;
    });
    await vi.advanceTimersByTimeAsync(150);
    expect(woken).toBe(wakes);
    // Whatever the node says, the wait ends by its limit.
    await vi.advanceTimersByTimeAsync(1000);
    await wait;
    expect(woken).toBe(true);
  });

  it("reads nothing while nobody waits", async () => {
    const node = fakeNode();
    const head = followChainHead(node, 100);
    await vi.advanceTimersByTimeAsync(1000);
    expect(node.reads).toBe(0);
    const wait = head.next(undefined, 60_000);
    await vi.advanceTimersByTimeAsync(100);
    await wait;
    await vi.advanceTimersByTimeAsync(1000);
    // The poll that woke the waiter, and at most one more before the loop saw nobody waiting.
    expect(node.reads).toBe(1);
  });
});
