import { config } from "../config";
import type { Db } from "../db/client";
import { log } from "../log";
import { findAuthorizationUse } from "./find-authorization-use";
import { withdrawUnpaidX402Invoice } from "./withdraw-unpaid-x402-invoice";

/** A SETTLING row untouched this long (its lease long lapsed) lost its settler (a crash, a restart). */
export const stuckSettlementMs = 5 * 60_000;

/**
 * Decides x402 settlements a crash left SETTLING, from the chain: the authorization used means the
 * transfer happened (SETTLED, with its transaction when found); unused after its window closed
 * means it never will (FAILED, a paylink's invoice withdrawn). One still open is left for the
 * payer's next copy of the payment (lib/x402/settle-x402-payment.ts). A live settlement renews its
 * row's lease (`updatedAt`) and is skipped; each decision is one short statement that only a
 * still-SETTLING row takes, so the chain is read holding no connection and no lock, and a
 * settler finishing meanwhile wins. Returns how many rows it decided.
 */
export async function resolveStuckX402Settlements(database: Db, now = new Date()): Promise<number> {
  const staleBefore = new Date(now.getTime() - stuckSettlementMs);
  const stuck = await database.x402Settlement.findMany({
    where: { status: "SETTLING", updatedAt: { lt: staleBefore } },
    orderBy: { createdAt: "asc" },
    take: 100,
  });
  let decided = 0;
  for (const row of stuck) {
    const network = config().networks.find((configured) => configured.id === row.network);
    if (!network) continue;
    const use = await findAuthorizationUse(network, row).catch((error) => {
      log.warn({ err: error, settlementId: row.id }, "x402 settlement left undecided");
      return undefined;
    });
    if (!use || (!use.used && row.validBefore > now)) continue;
    const where = { id: row.id, status: "SETTLING" as const, updatedAt: { lt: staleBefore } };
    const { count } = await database.x402Settlement.updateMany({
      where,
      data: use.used
        ? { status: "SETTLED", transaction: use.transaction, errorReason: null }
        : { status: "FAILED", errorReason: "settlement_interrupted" },
    });
    if (count === 0) continue;
    if (!use.used) await withdrawUnpaidX402Invoice(database, row, now);
    decided++;
  }
  return decided;
}
