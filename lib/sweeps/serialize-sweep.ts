import type { sweepObject } from "crypto-checkout-agent/shapes";
import type { z } from "zod";
import type { SignedTransaction, Sweep } from "../generated/prisma/client";

export function serializeSweep(
  sweep: Sweep & { transactions: SignedTransaction[] },
): z.output<typeof sweepObject> {
  return {
    id: sweep.id,
    object: "sweep",
    invoiceId: sweep.invoiceId,
    network: sweep.network,
    token: sweep.token,
    status: sweep.status,
    strategy: sweep.strategy,
    fromAddress: sweep.fromAddress,
    toAddress: sweep.toAddress,
    amount: sweep.amount.toString(),
    amountSent: sweep.amountSent?.toString() ?? null,
    failureReason: sweep.failureReason,
    resubmissions: sweep.resubmissions,
    createdAt: sweep.createdAt.toISOString(),
    confirmedAt: sweep.confirmedAt?.toISOString() ?? null,
    transactions: sweep.transactions.map((transaction) => ({
      hash: transaction.hash,
      kind: transaction.kind,
      nonce: transaction.nonce,
      replaced: transaction.replacedAt !== null,
      blockNumber: transaction.blockNumber?.toString() ?? null,
      gasUsed: transaction.gasUsed?.toString() ?? null,
      createdAt: transaction.createdAt.toISOString(),
    })),
  };
}
