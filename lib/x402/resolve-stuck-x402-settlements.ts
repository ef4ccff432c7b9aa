import { config } from "../config";
import type { Db } from "../db/client";
import type { X402Settlement } from "../generated/prisma/client";
import { log } from "../log";
import { findAuthorizationUse } from "./find-authorization-use";
import { withdrawUnpaidX402Invoice } from "./withdraw-unpaid-x402-invoice";

/** A SETTLING row untouched this long, its lock free, lost its settler (a crash, a restart). */
export const stuckSettlementMs = 5 * 60_000;

/**
 * Decides x402 settlements a crash left SETTLING, from the chain: the authorization used means the
 * transfer happened (SETTLED, with its transaction when found); unused after its window closed
 * means it never will (FAILED, a paylink's invoice withdrawn). One still open is left for the
 * payer's next copy of the payment (lib/x402/settle-x402-payment.ts). A live settlement holds its
 * row's lock and is skipped. Returns how many rows it decided.
 */
export async function resolveStuckX402Settlements(database: Db, now = new Date()): Promise<number> {
  const stuck = await database.x402Settlement.findMany({
    where: { status: "SETTLING", updatedAt: { lt: new Date(now.getTime() - stuckSettlementMs) } },
    orderBy: { createdAt: "asc" },
    take: 100,
  });
  let decided = 0;
  for (const candidate of stuck) {
    const network = config().networks.find((configured) => configured.id === candidate.network);
    if (!network) continue;
    let failed: X402Settlement | undefined;
    const done = await database
      .$transaction(
        async (tx) => {
          const [row] = await tx.$queryRaw<X402Settlement[]>`
          SELECT * FROM "X402Settlement" WHERE "id" = ${candidate.id} AND "status" = 'SETTLING'
          FOR UPDATE SKIP LOCKED`;
          if (!row) return false;
          const use = await findAuthorizationUse(network, row);
          if (use.used) {
            await tx.x402Settlement.update({
              where: { id: row.id },
              data: { status: "SETTLED", transaction: use.transaction, errorReason: null },
            });
            return true;
          }
          if (row.validBefore > now) return false;
          failed = await tx.x402Settlement.update({
            where: { id: row.id },
            data: { status: "FAILED", errorReason: "settlement_interrupted" },
          });
          return true;
        },
        { timeout: 60_000 },
      )
      .catch((error) => {
        log.warn({ err: error, settlementId: candidate.id }, "x402 settlement left undecided");
        return false;
      });
    if (failed) await withdrawUnpaidX402Invoice(database, failed, now);
    if (done) decided++;
  }
  return decided;
}
