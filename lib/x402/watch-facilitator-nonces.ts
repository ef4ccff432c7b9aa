import type { Hex, PrivateKeyAccount, PublicClient } from "viem";
import { log } from "../log";
import { findFacilitatorTransaction } from "./find-facilitator-transaction";
import { type FacilitatorNonce, replaceFacilitatorTransaction } from "./replace-facilitator-transaction";

/**
 * The most transactions the watch sends an hour: a node that reports a pending transaction forever
 * (lying, or broken) would otherwise have it fill nonce after nonce, each fill mined at a fee.
 */
const watchReplacementsPerHour = 20;

/**
 * Watches the facilitator wallet's lowest unmined nonce on one network, so that a transaction left
 * unmined by a process that died after broadcasting it (a crash, a deploy) does not hold back
 * every later settlement of the wallet: a settlement replaces only its own transaction, and only
 * while it awaits its receipt (await-facilitator-receipt.ts). The wallet's `latest` transaction
 * count not advancing for `stuckAfterMs` while its `pending` one is higher, the transaction at
 * that nonce is replaced by the same rules (replace-facilitator-transaction.ts), and again each
 * `stuckAfterMs` after; at the first look after the process started, a nonce it did not send is
 * taken as stuck already. A nonce whose settlement awaits its receipt here is left to it, and
 * one this process sent is replaced from what it sent; another is read from the node
 * (find-facilitator-transaction.ts, `recordedBroadcasts`), so the transfer of an authorization
 * is only ever the one already sent, at higher fees, or nothing: its row is decided from the
 * chain as any other. Returns `wake`, called at each settlement: the watch runs until nothing of
 * the wallet is unmined, looking each fifth of `stuckAfterMs`; a node or database it cannot read
 * is logged once and read again at the next look, never thrown into a settlement. The watch sends
 * at most watchReplacementsPerHour transactions an hour.
 */
export function watchFacilitatorNonces(
  client: PublicClient,
  account: PrivateKeyAccount,
  options: {
    chainId: number;
    stuckAfterMs: number;
    /** Each nonce this signer sent or took over, as sent and replaced: its settlements share it. */
    nonces: Map<number, FacilitatorNonce>;
    /** The nonces whose settlements await their receipts in this process. */
    awaiting: Set<number>;
    /** The transactions recorded on settlements' rows, where another process's are found. */
    recordedBroadcasts: () => Promise<Hex[]>;
  },
): () => void {
  const { nonces, awaiting, stuckAfterMs } = options;
  let running = false;
  let looked = false;
  let failing = false;
  /** The lowest unmined nonce, and since when the watch has seen it so. */
  let stall: { nonce: number; since: number } | undefined;
  /** When the watch sent each of its replacements in the last hour. */
  const sentAt: number[] = [];

  /** One look; true once nothing of the wallet is unmined. */
  const look = async (): Promise<boolean> => {
    const [latest, pending] = await Promise.all(
      (["latest", "pending"] as const).map((blockTag) =>
        client.getTransactionCount({ address: account.address, blockTag }),
      ),
    );
    for (const nonce of nonces.keys()) if (nonce < latest) nonces.delete(nonce);
    const first = !looked;
    looked = true;
    if (pending <= latest) {
      stall = undefined;
      return true;
    }
    if (stall?.nonce !== latest)
      stall = { nonce: latest, since: first && !nonces.has(latest) ? Number.NEGATIVE_INFINITY : Date.now() };
    if (awaiting.has(latest) || Date.now() - stall.since < stuckAfterMs) return false;
    while (sentAt.length > 0 && (sentAt[0] as number) < Date.now() - 60 * 60_000) sentAt.shift();
    if (sentAt.length >= watchReplacementsPerHour) return false;
    let stuck = nonces.get(latest);
    if (!stuck) {
      stuck = await findFacilitatorTransaction(client, account, {
        nonce: latest,
        chainId: options.chainId,
        recorded: await options.recordedBroadcasts(),
      });
      nonces.set(latest, stuck);
      log.warn(
        { address: account.address, nonce: latest, hash: stuck.first.hash },
        "x402 facilitator nonce left unmined by another process",
      );
    }
    sentAt.push(Date.now());
    await replaceFacilitatorTransaction(client, account, stuck);
    stall.since = Date.now();
    return false;
  };

  const run = async () => {
    for (;;) {
      const idle = await look().then(
        (done) => {
          failing = false;
          return done;
        },
        (error) => {
          if (!failing)
            log.warn({ err: error, address: account.address }, "x402 facilitator nonces not read");
          failing = true;
          return false;
        },
      );
      if (idle) {
        running = false;
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, stuckAfterMs / 5).unref());
    }
  };
  return () => {
    if (running) return;
    running = true;
    void run();
  };
}
