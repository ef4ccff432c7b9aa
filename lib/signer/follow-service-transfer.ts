import type { ServiceTransferProgress } from "../chains/chain-family";
import type { NetworkConfig } from "../chains/networks";
import type { Db, Tx } from "../db/client";
import type { SignedTransaction } from "../generated/prisma/client";
import { serviceTransfersOf } from "./sign-service-transfer";

/**
 * The owner's current service transfer (lib/signer/sign-service-transfer.ts): the newest of its
 * attempt not yet replaced by a transfer signed after it expired. Null when none is recorded.
 */
export function currentServiceTransfer(sent: SignedTransaction[]): SignedTransaction | null {
  return sent.findLast((transaction) => !transaction.replacedAt && transaction.validUntil !== null) ?? null;
}

/**
 * One step of following a recorded service transfer (ChainFamily.serviceTransfers.follow): sends
 * the same bytes again while the chain has not seen them, and records the position it landed at
 * once confirmed or failed. `expired` is final: the caller may then mark it replaced (in the
 * transaction that moves its owner on) and sign the payment anew.
 */
export async function followServiceTransfer(
  database: Db,
  network: NetworkConfig,
  transaction: SignedTransaction,
): Promise<ServiceTransferProgress> {
  if (transaction.validUntil === null) throw new Error(`${transaction.id} is no service transfer`);
  const progress = await serviceTransfersOf(network).follow(network, {
    id: transaction.hash,
    signer: transaction.signer,
    raw: transaction.raw,
    validUntil: transaction.validUntil,
  });
  if ((progress.state === "confirmed" || progress.state === "failed") && transaction.blockNumber === null)
    await database.signedTransaction.update({
      where: { id: transaction.id },
      data: { blockNumber: progress.position },
    });
  return progress;
}

/**
 * Marks an expired transfer replaced, in the database transaction that moves its owner on, once:
 * a second pass that read the same transfer as expired (a process that stalled past its lease
 * while another replaced it) finds it replaced already and throws, so its transaction rolls back
 * and it signs nothing. With no nonce on the chain to stop a second copy, this is what keeps a
 * payment from going out twice.
 */
export async function markServiceTransferReplaced(tx: Tx, id: string, now: Date) {
  const marked = await tx.signedTransaction.updateMany({
    where: { id, replacedAt: null },
    data: { replacedAt: now },
  });
  if (marked.count !== 1) throw new Error(`transfer ${id} was replaced meanwhile`);
}
