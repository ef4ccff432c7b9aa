import type { Hex, PublicClient } from "viem";
import type { Db, Tx } from "../db/client";
import type { SignedTransaction } from "../generated/prisma/client";
import { log } from "../log";
import { broadcastTransaction } from "./broadcast-transaction";

export type FollowRequest = {
  database: Db;
  client: PublicClient;
  /** One owner's transactions of one kind and attempt, oldest first (replacements included). */
  sent: SignedTransaction[];
  now: Date;
  /** A transaction still unmined after this long is handed to `replace`. */
  stuckAfterMs: number;
  /** Counts a re-broadcast after a reorganisation on the owner, in the transaction that clears the block. */
  onReorg: (tx: Tx) => Promise<void>;
  /** Re-signs the stuck `current` with the same nonce and a higher fee (lib/signer/bump-fee.ts). */
  replace: (first: SignedTransaction, current: SignedTransaction) => Promise<void>;
  /** Names the owner in log lines. */
  logFields: Record<string, string>;
};

export type FollowResult = "waiting" | "reverted" | { blockNumber: bigint; hash: string };

/**
 * Follows an owner's transaction (the current one and those it replaced, any of which may be the
 * one mined). Mined: records its block and gas. Not mined: a transaction whose block left the
 * chain is broadcast again (the same bytes, so still at most once); one the node lost is re-sent;
 * one pending past stuckAfterMs is replaced with a higher fee. Nothing sent: block 0.
 */
export async function followTransactions(request: FollowRequest): Promise<FollowResult> {
  const { client, database, sent } = request;
  const current = sent.find((transaction) => !transaction.replacedAt);
  if (!current) return { blockNumber: 0n, hash: "" };
  for (const transaction of [...sent].reverse()) {
    const receipt = await client.getTransactionReceipt({ hash: transaction.hash as Hex }).catch(() => null);
    if (!receipt) continue;
    if (transaction.blockHash !== receipt.blockHash)
      await database.signedTransaction.update({
        where: { id: transaction.id },
        data: {
          blockNumber: receipt.blockNumber,
          blockHash: receipt.blockHash,
          gasUsed: receipt.gasUsed.toString(),
        },
      });
    return receipt.status === "success"
      ? { blockNumber: receipt.blockNumber, hash: transaction.hash }
      : "reverted";
  }

  const reorged = sent.filter((transaction) => transaction.blockHash);
  if (reorged.length > 0) {
    await database.$transaction(async (tx) => {
      await tx.signedTransaction.updateMany({
        where: { id: { in: reorged.map((transaction) => transaction.id) } },
        data: { blockNumber: null, blockHash: null, gasUsed: null },
      });
      await request.onReorg(tx);
    });
    log.warn(
      { ...request.logFields, hash: current.hash },
      "transaction reorganised away; broadcasting it again",
    );
    await broadcastTransaction(client, current.raw as Hex);
    return "waiting";
  }

  const known = await client.getTransaction({ hash: current.hash as Hex }).catch(() => null);
  if (!known) {
    await broadcastTransaction(client, current.raw as Hex);
    return "waiting";
  }
  if (request.now.getTime() - current.createdAt.getTime() < request.stuckAfterMs) return "waiting";
  await request.replace(sent[0], current);
  return "waiting";
}
