import type { Db } from "../db/client";
import { openSettlementChangeStatuses } from "./settlement-change-state";

/** The organization's changes that wait for an owner or for their time, oldest first. */
export function listOpenSettlementChanges(database: Db, organizationId: string) {
  return database.settlementChange.findMany({
    where: { organizationId, status: { in: [...openSettlementChangeStatuses] } },
    orderBy: [{ network: "asc" }, { createdAt: "asc" }],
  });
}
