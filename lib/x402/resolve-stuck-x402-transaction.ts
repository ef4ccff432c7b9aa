import type { NetworkConfig } from "../chains/networks";
import type { X402TransactionScheme } from "../chains/x402-transaction-scheme";
import type { Db } from "../db/client";
import type { X402Settlement } from "../generated/prisma/client";
import { recordedX402Transaction } from "./record-x402-payment";
import { recordX402TransactionOutcome } from "./record-x402-transaction-outcome";

/**
 * A payment by transaction (X402TransactionScheme) left SETTLING by a settler that died, decided
 * from the transaction recorded on its row before anything was sent: followed one step at the
 * network's commitment, it is sent again while it can still land (the same bytes, so at most
 * once) and stays SETTLING; landed it is SETTLED (the watcher pays the invoice by its memo),
 * failed on chain FAILED, and unseen once the chain finalized past its last valid height FAILED
 * `settlement_expired` (recordX402TransactionOutcome), as is one with none recorded once its
 * window closed. Only a row still stale takes the decision,
 * so a settler that took it over meanwhile wins. Throws when the node cannot answer. Returns
 * whether it decided the row.
 */
export async function resolveStuckX402Transaction(
  database: Db,
  network: NetworkConfig,
  scheme: X402TransactionScheme,
  row: X402Settlement,
  options: { staleBefore: Date; now: Date },
): Promise<boolean> {
  const signed = recordedX402Transaction(row);
  const where = { updatedAt: { lt: options.staleBefore } };
  if (!signed) {
    // Left before the signing role's facilitator recorded one (a web tier without keys): nothing
    // was sent, and none is recorded once the row's window closed, so it can never be.
    if (row.validBefore.getTime() > options.now.getTime()) return false;
    return recordX402TransactionOutcome(database, row, "expired", {
      network,
      now: options.now,
      where: { ...where, signedTransaction: null },
    });
  }
  const progress = await scheme.follow(network, signed);
  return recordX402TransactionOutcome(database, row, progress, { network, now: options.now, where });
}
