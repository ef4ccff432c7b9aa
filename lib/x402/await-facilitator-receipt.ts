import {
  type PrivateKeyAccount,
  type PublicClient,
  type TransactionReceipt,
  TransactionReceiptNotFoundError,
  WaitForTransactionReceiptTimeoutError,
} from "viem";
import type { ChainHead } from "./follow-chain-head";
import { type FacilitatorNonce, replaceFacilitatorTransaction } from "./replace-facilitator-transaction";

/**
 * The receipt of the facilitator's transaction first sent at `nonce`, looked for at once and then
 * at each new head (`head`, shared by the signer's settlements), while other settlements go on
 * (no queue, no database). Each head is looked at twice, the second time a poll later (a provider
 * behind a load balancer may answer a head before the receipts in it), and a receipt read that
 * failed is made again at the next poll; a head that does not move, or cannot be read, still
 * ends a wait after two blocks' time. Unmined after `stuckAfterMs`, its nonce, which every
 * later settlement of the wallet waits behind, is sent again by the rules of
 * replace-facilitator-transaction.ts (the same transfer with higher fees, or a transfer of nothing
 * to itself), and again each `stuckAfterMs` after. A replacement mined throws, as does the nonce
 * used by a transaction none of these (another process holding the wallet replaced it): the
 * facilitator then answers `settlement_pending` and the settler decides the row from the chain,
 * with the transaction that landed (lib/x402/settle-x402-authorization.ts). Throws too after
 * `timeoutMs` with nothing mined.
 */
export async function awaitFacilitatorReceipt(
  client: PublicClient,
  account: PrivateKeyAccount,
  nonce: FacilitatorNonce,
  options: { stuckAfterMs: number; timeoutMs: number; blockTimeMs: number; head: ChainHead },
): Promise<TransactionReceipt> {
  const { first } = nonce;
  const deadline = Date.now() + options.timeoutMs;
  let sentAt = Date.now();
  /** The head at the last look (null before the first). */
  let lookedAt: bigint | undefined | null = null;
  for (;;) {
    const stuck = Date.now() - sentAt >= options.stuckAfterMs;
    // The head before the reads: a block mined after it may hold the receipt, and wakes the wait.
    const seen = options.head.current();
    // Read before the receipts: a transaction of ours mined after them is among them.
    const used =
      stuck &&
      (await client
        .getTransactionCount({ address: account.address, blockTag: "latest" })
        .then((count) => count > first.nonce)
        .catch(() => false));
    const hashes = [...nonce.hashes];
    let unread = false;
    const receipts = await Promise.all(
      hashes.map((hash) =>
        client.getTransactionReceipt({ hash }).catch((error: unknown) => {
          // Not found is an answer; anything else (a timeout, a rate limit) is a read to make again.
          if (!(error instanceof TransactionReceiptNotFoundError)) unread = true;
          return undefined;
        }),
      ),
    );
    const mined = receipts.findIndex((receipt) => receipt !== undefined);
    if (mined === 0) return receipts[0] as TransactionReceipt;
    if (mined > 0) throw new Error(`x402 settlement ${first.hash} replaced by ${hashes[mined]}`);
    if (used) throw new Error(`x402 settlement ${first.hash} replaced at its nonce by another transaction`);
    if (Date.now() >= deadline) throw new WaitForTransactionReceiptTimeoutError({ hash: first.hash });
    if (stuck) {
      await replaceFacilitatorTransaction(client, account, nonce);
      sentAt = Date.now();
    }
    const again = unread || seen !== lookedAt;
    lookedAt = seen;
    const until = Math.min(sentAt + options.stuckAfterMs, deadline, Date.now() + 2 * options.blockTimeMs);
    await options.head.next(again ? undefined : seen, Math.max(1, until - Date.now()));
  }
}
