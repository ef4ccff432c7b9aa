import type { NetworkConfig } from "../chains/networks";
import type { X402TransactionProgress } from "../chains/x402-transaction-scheme";
import type { Db } from "../db/client";
import type { Prisma, X402Settlement } from "../generated/prisma/client";
import { metrics } from "../metrics/metrics";
import { withdrawUnpaidX402Invoice } from "./withdraw-unpaid-x402-invoice";
import { settlementGasUsd } from "./x402-gas";
import { startX402PayerCooldown } from "./x402-payer-cooldown";
import { lapsedLease } from "./x402-settler-lease";

/**
 * Records where a payment's transaction stands, as its settler or whoever took it over found it
 * (X402TransactionScheme.follow), in one short transaction that only a row still SETTLING (and
 * matching `where`) takes: confirmed ⇒ SETTLED (the watcher pays the invoice by its memo); failed
 * on chain ⇒ FAILED, a fee our fee payer lost (counted), its payer put in a cooldown in the same
 * transaction (x402-payer-cooldown.ts); unseen by the node but paying the invoice as the watcher
 * recorded it ⇒ SETTLED; never landed and never able to ⇒ FAILED `settlement_expired`; a FAILED one's
 * paylink invoice is withdrawn. Pending leaves it SETTLING, its lease handed back when `handBack`
 * (the settler's own wait ended), else untouched. Returns whether this call decided it (another
 * may have first).
 */
export async function recordX402TransactionOutcome(
  database: Db,
  row: X402Settlement,
  progress: X402TransactionProgress,
  options: { network: NetworkConfig; now: Date; where?: Prisma.X402SettlementWhereInput; handBack?: true },
): Promise<boolean> {
  const { network, now } = options;
  // A node whose history no longer reaches the transaction (pruned: a row decided long after) finds
  // nothing of one that landed, which reads as expired; the watcher recorded it as it landed.
  const { invoiceId, transaction } = row;
  const landed =
    progress === "expired" &&
    transaction !== null &&
    (await database.payment.count({ where: { invoiceId, txHash: transaction } })) > 0;
  const status =
    progress === "confirmed" || landed ? "SETTLED" : progress === "pending" ? "SETTLING" : "FAILED";
  if (status === "SETTLING" && !options.handBack) return false;
  metrics().x402Settlements.inc({
    result: status === "SETTLED" ? "settled" : status === "FAILED" ? "failed" : "pending",
  });
  const errorReason =
    progress === "failed"
      ? "invalid_exact_svm_transaction_failed"
      : progress === "expired" && !landed
        ? "settlement_expired"
        : null;
  // Only a transaction that landed (confirmed, or failed on chain) cost our fee payer its fee; one
  // that expired cost nothing, so it counts 0 against the budget (x402-gas.ts).
  const gasUsd =
    status === "SETTLING"
      ? undefined
      : errorReason === "settlement_expired"
        ? "0"
        : (await settlementGasUsd(network, now))?.toString();
  const count = await database.$transaction(async (tx) => {
    const { count: updated } = await tx.x402Settlement.updateMany({
      where: { ...options.where, id: row.id, status: "SETTLING" },
      data:
        status === "SETTLING"
          ? { updatedAt: lapsedLease() }
          : { status, errorReason, ...(gasUsd ? { gasUsd } : {}) },
    });
    if (updated === 1 && progress === "failed") await startX402PayerCooldown(tx, row.network, row.payer, now);
    return updated;
  });
  if (count === 0 || status === "SETTLING") return false;
  if (progress === "failed") metrics().x402FeePayerLosses.inc({ network: row.network });
  if (status === "FAILED") await withdrawUnpaidX402Invoice(database, row, now);
  return true;
}
