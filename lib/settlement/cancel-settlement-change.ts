import type { Db } from "../db/client";
import { decideSettlementChange, type SettlementDecision } from "./decide-settlement-change";

/** An owner cancels a change before it takes effect: the wallet in force stays. */
export function cancelSettlementChange(
  database: Db,
  organizationId: string,
  decision: SettlementDecision,
  now = new Date(),
) {
  return database.$transaction((tx) => decideSettlementChange(tx, organizationId, decision, "cancel", now));
}
