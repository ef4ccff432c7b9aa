import type { Hex, PrivateKeyAccount, PublicClient } from "viem";
import type { NetworkConfig } from "../chains/networks";
import type { Db } from "../db/client";
import { transactWithEvents } from "../events/transact-with-events";
import type { Refund, SignedTransaction } from "../generated/prisma/client";
import { log } from "../log";
import { formatDecimal } from "../money/decimal";
import { recordReceiptEmail } from "../receipts/record-receipt-email";
import { bumpFee, withinFeeCap } from "../signer/bump-fee";
import { nativeTransferGas } from "../signer/estimate-transfer-gas";
import { followTransactions } from "../signer/follow-transactions";
import { signTransaction, type UnsignedTransaction } from "../signer/sign-transaction";
import { recordRefundEvent } from "./record-refund-event";
import { nextRefundStatus, type RefundEvent } from "./refund-state";

// A refund's transaction and changes of status, on the signing role's one implementation
// (lib/signer/): the transfer is recorded with the refund's move to SUBMITTED before it is
// broadcast, followed through reorganisations, replaced with a higher fee when stuck; SUCCEEDED
// and FAILED are written with their refund.* event in the same transaction.

export type RefundWithTransactions = Refund & { transactions: SignedTransaction[] };

export type RefundContext = {
  database: Db;
  network: NetworkConfig;
  client: PublicClient;
  wallet: PrivateKeyAccount;
  now: Date;
  stuckAfterMs: number;
  beforeBroadcast?: (hash: Hex) => void | Promise<void>;
};

function next(refund: Refund, event: RefundEvent) {
  const status = nextRefundStatus(refund.status, event);
  if (!status) throw new Error(`refund ${refund.id}: ${event} does not apply in ${refund.status}`);
  return status;
}

/** Signs, records (with the move to SUBMITTED, or a replacement's new hash) and broadcasts. */
export async function signForRefund(
  context: RefundContext,
  refund: RefundWithTransactions,
  event: "submit" | "replace",
  unsigned: UnsignedTransaction,
  replaces?: SignedTransaction,
) {
  const status = next(refund, event);
  return signTransaction({
    database: context.database,
    network: context.network,
    client: context.client,
    account: context.wallet,
    kind: "TRANSFER",
    unsigned,
    now: context.now,
    replaces,
    beforeBroadcast: context.beforeBroadcast,
    owner: {
      link: { refundId: refund.id },
      attempt: refund.attempt,
      record: async (tx, hash) => {
        const moved = await tx.refund.updateMany({
          where: { id: refund.id, organizationId: refund.organizationId, status: refund.status },
          data:
            event === "submit"
              ? { status, txHash: hash, submittedAt: context.now, pendingReason: null }
              : { status, txHash: hash },
        });
        if (moved.count !== 1) throw new Error(`refund ${refund.id} moved on meanwhile`);
      },
    },
  });
}

/**
 * SUCCEEDED (with the mined transaction's hash) or FAILED (with the reason), and the refund's
 * event, in one transaction; nothing when the refund moved on meanwhile.
 */
export async function finishRefund(
  context: Pick<RefundContext, "database" | "now">,
  refund: Refund,
  outcome: { event: "confirm"; txHash: string } | { event: "fail"; failureReason: string },
) {
  const status = next(refund, outcome.event);
  await transactWithEvents(context.database, async (tx) => {
    const moved = await tx.refund.updateMany({
      where: { id: refund.id, organizationId: refund.organizationId, status: refund.status },
      data:
        outcome.event === "confirm"
          ? { status, txHash: outcome.txHash, confirmedAt: context.now }
          : { status, failureReason: outcome.failureReason, pendingReason: null },
    });
    if (moved.count !== 1) return;
    const updated = await tx.refund.findUniqueOrThrow({ where: { id: refund.id } });
    await recordRefundEvent(tx, updated, outcome.event === "confirm" ? "refund.succeeded" : "refund.failed");
    // The buyer's receipt, with this refund on it; a claim refund's buyer was promised it on the
    // claim page, whatever the organization's receipt setting.
    if (updated.status === "SUCCEEDED")
      await recordReceiptEmail(
        tx,
        updated.invoiceId,
        { kind: "refund", refundId: updated.id, amount: formatDecimal(updated.amount) },
        context.now,
        { force: updated.destination === "CLAIM", to: updated.claimEmail },
      );
  });
}

/** Follows the refund's transfer (lib/signer/follow-transactions.ts). */
export function followRefund(context: RefundContext, refund: RefundWithTransactions) {
  return followTransactions({
    database: context.database,
    client: context.client,
    sent: refund.transactions,
    now: context.now,
    stuckAfterMs: context.stuckAfterMs,
    onReorg: async (tx) => {
      await tx.refund.updateMany({
        where: { id: refund.id, status: refund.status },
        data: { status: next(refund, "reorg"), resubmissions: { increment: 1 } },
      });
    },
    replace: (first, current) => replace(context, refund, first, current),
    logFields: { refundId: refund.id },
  });
}

/** Re-signs the stuck transfer with the same nonce and a fee a quarter higher, within the cap. */
async function replace(
  context: RefundContext,
  refund: RefundWithTransactions,
  first: SignedTransaction,
  current: SignedTransaction,
) {
  const bump = bumpFee(first, current, nativeTransferGas);
  if (!withinFeeCap(bump, bump.unsigned.maxFeePerGas)) {
    log.warn({ refundId: refund.id, hash: current.hash }, "refund transaction stuck at its fee cap");
    return;
  }
  await signForRefund(context, refund, "replace", bump.unsigned, current);
}
