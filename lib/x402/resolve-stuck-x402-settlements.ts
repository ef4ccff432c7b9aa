import { chainFamily } from "../chains/chain-families";
import { config } from "../config";
import type { Db } from "../db/client";
import { log } from "../log";
import { decideX402Settlement } from "./decide-x402-settlement";
import { findFacilitatorWallets } from "./find-facilitator-wallets";
import { resolveStuckX402Transaction } from "./resolve-stuck-x402-transaction";
import { withdrawUnpaidX402Invoice } from "./withdraw-unpaid-x402-invoice";

/** A SETTLING row untouched this long (its lease long lapsed) lost its settler (a crash, a restart). */
export const stuckSettlementMs = 5 * 60_000;

/**
 * Decides x402 settlements left SETTLING (a crash, a lost answer, a transfer still pending) from
 * the chain. A payment by transaction is decided by its recorded transaction, which this pass
 * sends again while it can land (resolve-stuck-x402-transaction.ts). For an authorization, by
 * the rule a settler follows (lib/x402/decide-x402-settlement.ts): the authorization
 * used in a transfer that paid us means the transfer happened (SETTLED, with its transaction);
 * canceled, spent by another transfer, or unused once the chain is past its window means it never
 * will (FAILED, a paylink's invoice withdrawn). Anything else may still land and is left; the
 * payer's next copy of the payment may settle one that was never sent: for an authorization it
 * sends nothing itself.
 * The gas our facilitator wallet paid for the row's transaction, once mined (reverted too), is
 * recorded. A live settlement renews its row's lease (`updatedAt`) and is skipped; a tried row's
 * `updatedAt` moves to the edge of the stale window (still stale), so the least recently tried
 * come first and every stale row gets a turn however many stay pending; each
 * write is one short statement that only a still-SETTLING, still-stale row takes, so the chain is
 * read holding no connection and no lock, and a settler finishing meanwhile wins. Returns how
 * many rows it decided.
 */
export async function resolveStuckX402Settlements(database: Db, now = new Date()): Promise<number> {
  const staleBefore = new Date(now.getTime() - stuckSettlementMs);
  const { networks } = config();
  const stuck = await database.x402Settlement.findMany({
    where: {
      status: "SETTLING",
      updatedAt: { lt: staleBefore },
      network: { in: networks.map((network) => network.id) },
    },
    // Least recently tried first: each try below moves a row to the back, so rows that stay
    // pending (or whose node keeps failing) cannot hold the others out of the batch.
    orderBy: { updatedAt: "asc" },
    take: 100,
  });
  // Just inside the stale window: still stale for the next pass, the lease still lapsed, but
  // tried later than every row not tried in this pass.
  const tried = new Date(staleBefore.getTime() - 1);
  let decided = 0;
  for (const row of stuck) {
    const network = networks.find((configured) => configured.id === row.network);
    if (!network) continue;
    const { count: mine } = await database.x402Settlement.updateMany({
      where: { id: row.id, status: "SETTLING", updatedAt: { lt: staleBefore } },
      data: { updatedAt: tried },
    });
    // A settler took the row back (or finished it) since it was read.
    if (mine === 0) continue;
    // A payment by transaction: its recorded transaction decides it (sent again while it can land).
    const scheme = chainFamily(network).x402Transactions;
    let found: Awaited<ReturnType<typeof decideX402Settlement>>;
    try {
      if (scheme) {
        if (await resolveStuckX402Transaction(database, network, scheme, row, { staleBefore, now }))
          decided++;
        continue;
      }
      const wallets = await findFacilitatorWallets(database, network);
      found = await decideX402Settlement(network, row, { sent: row.transaction, wallets, now });
    } catch (error) {
      // One row the chain cannot decide now (its node down) leaves the others to be decided.
      log.warn(
        { err: error, settlementId: row.id, network: network.id },
        "stuck x402 settlement not decided",
      );
      continue;
    }
    if (!found) continue;
    const { status, transaction, gasUsd } = found;
    const known = { ...(transaction ? { transaction } : {}), ...(gasUsd ? { gasUsd } : {}) };
    const where = { id: row.id, status: "SETTLING" as const, updatedAt: { lt: staleBefore } };
    if (status === "SETTLING") {
      // Still stale for the next pass: the lease stays lapsed.
      if (gasUsd && !row.gasUsd)
        await database.x402Settlement.updateMany({ where, data: { gasUsd, updatedAt: tried } });
      continue;
    }
    const { count } = await database.x402Settlement.updateMany({
      where,
      data:
        status === "SETTLED"
          ? { status, errorReason: null, ...known }
          : {
              status,
              // A window that closed on a settlement nobody finished: it was interrupted.
              errorReason:
                found.errorReason === "settlement_expired" ? "settlement_interrupted" : found.errorReason,
              ...known,
            },
    });
    if (count === 0) continue;
    if (status === "FAILED") await withdrawUnpaidX402Invoice(database, row, now);
    decided++;
  }
  return decided;
}
