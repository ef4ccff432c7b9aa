import type { Db } from "../db/client";
import { decideSettlementChange, type SettlementDecision } from "./decide-settlement-change";

/** An owner rejects a proposal: nothing changes, and the proposal stays on record. */
export function rejectSettlementChange(
  database: Db,
  organizationId: string,
  decision: SettlementDecision,
  now = new Date(),
) {
  return database.$transaction((tx) => decideSettlementChange(tx, organizationId, decision, "reject", now));
}
