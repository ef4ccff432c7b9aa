import type { Tx } from "../db/client";
import { invalidRequest, notFound } from "../errors";
import type { SettlementChange } from "../generated/prisma/client";
import { lockSettlement } from "./apply-settlement-change";
import { nextSettlementChangeStatus, type SettlementChangeEvent } from "./settlement-change-state";

export type SettlementDecision = { id: string; userId: string };

const refusals: Record<Exclude<SettlementChangeEvent, "apply">, string> = {
  confirm: "Only a proposed change can be confirmed.",
  reject: "Only a proposed change can be rejected.",
  cancel: "Only a proposed or scheduled change can be cancelled.",
};

/**
 * Moves one of the organization's changes by an owner's decision inside the caller's transaction,
 * under the organization's settlement lock; refuses when the change has moved on already.
 */
export async function decideSettlementChange(
  tx: Tx,
  organizationId: string,
  decision: SettlementDecision,
  event: Exclude<SettlementChangeEvent, "apply">,
  now: Date,
  data: { effectiveAt?: Date; previousAddress?: string | null } = {},
): Promise<SettlementChange> {
  await lockSettlement(tx, organizationId);
  const change = await tx.settlementChange.findFirst({ where: { id: decision.id, organizationId } });
  if (!change) throw notFound("settlement change", "id");
  const next = nextSettlementChangeStatus(change.status, event);
  if (!next) throw invalidRequest("settlement_change_decided", refusals[event], "id");
  return tx.settlementChange.update({
    where: { id: change.id, status: change.status },
    data: { status: next, decidedByUserId: decision.userId, decidedAt: now, ...data },
  });
}
