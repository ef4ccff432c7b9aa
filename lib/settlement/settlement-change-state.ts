// The settlement change state machine, pure. Callers write the resulting status inside the
// transaction that acts on it (lib/settlement/*):
//   PROPOSED  --confirm--> SCHEDULED   (an owner confirms an agent's or app's proposal)
//   PROPOSED  --reject-->  REJECTED
//   PROPOSED/SCHEDULED --cancel--> CANCELLED  (an owner cancels, or a newer request supersedes it)
//   SCHEDULED --apply-->   APPLIED     (due: the settlement wallet is written)

export const settlementChangeStatuses = [
  "PROPOSED",
  "SCHEDULED",
  "APPLIED",
  "REJECTED",
  "CANCELLED",
] as const;
export type SettlementChangeStatus = (typeof settlementChangeStatuses)[number];

export type SettlementChangeEvent = "confirm" | "reject" | "cancel" | "apply";

const transitions: Record<
  SettlementChangeEvent,
  Partial<Record<SettlementChangeStatus, SettlementChangeStatus>>
> = {
  confirm: { PROPOSED: "SCHEDULED" },
  reject: { PROPOSED: "REJECTED" },
  cancel: { PROPOSED: "CANCELLED", SCHEDULED: "CANCELLED" },
  apply: { SCHEDULED: "APPLIED" },
};

/** The status after `event`, or null when the event does not apply in `status`. */
export function nextSettlementChangeStatus(
  status: SettlementChangeStatus,
  event: SettlementChangeEvent,
): SettlementChangeStatus | null {
  return transitions[event][status] ?? null;
}

/** Changes that still wait for an owner's decision or for their time. */
export const openSettlementChangeStatuses = [
  "PROPOSED",
  "SCHEDULED",
] as const satisfies SettlementChangeStatus[];
