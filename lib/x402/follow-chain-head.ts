import type { PublicClient } from "viem";

export type ChainHead = ReturnType<typeof followChainHead>;

/**
 * The chain's head block number, read once each `pollingMs` for everyone waiting on it, and only
 * while someone is: concurrent settlements awaiting their receipts each look once a block, not
 * once a poll each (a node, or an RPC provider that counts calls, answers one read for all).
 * A head that differs from the one a waiter saw wakes it, smaller too (a node restarted, another
 * behind a load balancer): the waiter then only looks once more. A read that fails wakes everyone,
 * as a poll of their own would have: a provider that refuses the head may still answer receipts.
 */
export function followChainHead(client: Pick<PublicClient, "getBlockNumber">, pollingMs: number) {
  let head: bigint | undefined;
  const waiters = new Set<{ seen: bigint | undefined; wake: () => void }>();
  let polling = false;

  const poll = async () => {
    polling = true;
    while (waiters.size > 0) {
      await new Promise((resolve) => setTimeout(resolve, pollingMs));
      const read = await client.getBlockNumber().catch(() => undefined);
      if (read !== undefined) head = read;
      for (const waiter of waiters) if (read === undefined || waiter.seen !== read) waiter.wake();
    }
    polling = false;
  };

  return {
    /** The head as last read (undefined before the first read): what a waiter saw before it looked. */
    current: () => head,
    /**
     * Settles once a head other than `seen` is read (any head, if undefined) or a read fails, or
     * after `maxWaitMs`.
     */
    next: (seen: bigint | undefined, maxWaitMs: number) =>
      new Promise<void>((resolve) => {
        const waiter = {
          seen,
          wake: () => {
            clearTimeout(timer);
            waiters.delete(waiter);
            resolve();
          },
        };
        const timer = setTimeout(waiter.wake, maxWaitMs);
        waiters.add(waiter);
        if (!polling) void poll();
      }),
  };
}
