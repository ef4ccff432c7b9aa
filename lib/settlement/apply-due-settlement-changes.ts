import type { Db } from "../db/client";
import { log } from "../log";
import { applySettlementChange, lockSettlement } from "./apply-settlement-change";

/**
 * Puts every SCHEDULED change whose time has come in force, each in its own transaction with the
 * wallet it writes. The sweeper calls it before planning, so a sweep goes to the wallet that is
 * in force at that moment; `organizationId` limits it to one organization (a new request first
 * settles what is due). Returns how many were applied.
 */
export async function applyDueSettlementChanges(database: Db, now: Date, organizationId?: string) {
  const due = await database.settlementChange.findMany({
    where: { status: "SCHEDULED", effectiveAt: { lte: now }, ...(organizationId ? { organizationId } : {}) },
    orderBy: { effectiveAt: "asc" },
  });
  let applied = 0;
  for (const change of due) {
    const done = await database.$transaction(async (tx) => {
      await lockSettlement(tx, change.organizationId);
      return applySettlementChange(tx, change);
    });
    if (done) {
      applied++;
      log.info(
        { organizationId: change.organizationId, network: change.network, settlementChangeId: change.id },
        "settlement wallet change took effect",
      );
    }
  }
  return applied;
}
