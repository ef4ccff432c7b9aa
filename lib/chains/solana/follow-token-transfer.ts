import {
  type Base64EncodedWireTransaction,
  type GetEpochInfoApi,
  type GetSignatureStatusesApi,
  isSolanaError,
  type Rpc,
  type SendTransactionApi,
  type Signature,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE,
  type TransactionError,
} from "@solana/kit";
import type { PreparedSolanaTransaction } from "./prepare-solana-transaction";

/**
 * Where a prepared transaction stands:
 * - confirmed: it succeeded, in a block at the commitment asked for;
 * - failed: it landed and failed (its fee charged, nothing else changed) at that commitment;
 * - pending: not yet at that commitment, or not known yet and still able to land; `rejected` is
 *   why the node refused it just now (its simulation failed): it may still land until it expires;
 * - expired: its blockhash is past and the chain never saw it: it never will, so the caller may
 *   prepare the payment anew.
 */
export type TransferProgress =
  | { state: "confirmed"; slot: bigint }
  | { state: "failed"; slot: bigint; error: TransactionError }
  | { state: "pending"; rejected?: string }
  | { state: "expired" };

const commitmentRank = { processed: 0, confirmed: 1, finalized: 2 } as const;

/**
 * Follows a prepared transaction (prepare-token-transfer.ts) one step: reads its status and, while
 * the chain has not seen it and it can still land, (re)sends the stored bytes. Resending is
 * harmless: the same signed bytes land at most once. Call it again until it is no longer pending.
 */
export async function followTokenTransfer(
  rpc: Rpc<GetEpochInfoApi & GetSignatureStatusesApi & SendTransactionApi>,
  prepared: PreparedSolanaTransaction,
  commitment: "confirmed" | "finalized",
): Promise<TransferProgress> {
  // The finalized height first: once it is past the blockhash's last valid height, no block that
  // could hold the transaction is still open, so a status read after it that finds nothing is final,
  // if the node that answers it has seen that finalized slot: a node behind (another one behind
  // the same RPC address) finds nothing of a transaction that did land, and calling it expired
  // would have the caller sign the payment anew and pay twice.
  const finalized = await rpc.getEpochInfo({ commitment: "finalized" }).send();
  const signature = prepared.signature as Signature;
  const { context, value } = await rpc
    .getSignatureStatuses([signature], { searchTransactionHistory: true })
    .send();
  const status = value[0];
  if (status) {
    if (commitmentRank[status.confirmationStatus ?? "processed"] < commitmentRank[commitment])
      return { state: "pending" };
    return status.err === null
      ? { state: "confirmed", slot: status.slot }
      : { state: "failed", slot: status.slot, error: status.err };
  }
  // A node behind the slot it was signed at knows neither it nor its blockhash yet: ask again.
  if (prepared.minContextSlot !== undefined && context.slot < prepared.minContextSlot)
    return { state: "pending" };
  if (finalized.blockHeight > prepared.lastValidBlockHeight)
    return context.slot >= finalized.absoluteSlot ? { state: "expired" } : { state: "pending" };
  try {
    await rpc
      .sendTransaction(prepared.wire as Base64EncodedWireTransaction, {
        encoding: "base64",
        // Simulated against the newest state (where it would land): a balance a transaction in a
        // block already spends fails here, before a fee is paid for a transaction failing on chain.
        preflightCommitment: "processed",
      })
      .send();
  } catch (error) {
    // A failed simulation is the node's view now (a balance short, or an earlier copy landing
    // meanwhile); any other error (the node unreachable) is the caller's to retry.
    if (!isSolanaError(error, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE))
      throw error;
    const cause = error.cause instanceof Error ? error.cause.message : error.message;
    return { state: "pending", rejected: cause };
  }
  return { state: "pending" };
}
