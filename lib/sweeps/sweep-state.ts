// The sweep state machine, pure. The sweeper applies an event, and writes the resulting status in
// the same transaction as the transaction record that caused it:
//   PENDING/DEFERRED --start_native--> SUBMITTED   (the deposit address pays its own fee)
//   PENDING/DEFERRED --start_funding--> FUNDING    (the gas wallet tops the address up first)
//   PENDING/DEFERRED --start_direct--> SUBMITTED   (a DIRECT sweep: the fee payer pays the fee)
//   PENDING/DEFERRED/FUNDING --defer--> DEFERRED   (gas wallet too low, or the destination is not
//                                                   the wallet in force; tried again later)
//   FUNDING --funded--> SUBMITTED                  (top-up mined; the token transfer is sent)
//   FUNDING/SUBMITTED --replace|reorg--> itself    (fee bump, or re-broadcast after a reorg)
//   SUBMITTED --confirm--> CONFIRMED               (the transfer is at confirmation depth)
//   SUBMITTED --expire--> PENDING                  (a DIRECT sweep's transfer can never land: signed anew)
//   any open status --fail--> FAILED; FAILED --retry--> PENDING

export const sweepStatuses = ["PENDING", "FUNDING", "SUBMITTED", "CONFIRMED", "FAILED", "DEFERRED"] as const;
export type SweepStatus = (typeof sweepStatuses)[number];

export type SweepEvent =
  | "start_native"
  | "start_funding"
  | "start_direct"
  | "defer"
  | "funded"
  | "replace"
  | "reorg"
  | "confirm"
  | "expire"
  | "fail"
  | "retry";

const transitions: Record<SweepEvent, Partial<Record<SweepStatus, SweepStatus>>> = {
  start_native: { PENDING: "SUBMITTED", DEFERRED: "SUBMITTED" },
  start_funding: { PENDING: "FUNDING", DEFERRED: "FUNDING" },
  start_direct: { PENDING: "SUBMITTED", DEFERRED: "SUBMITTED" },
  defer: { PENDING: "DEFERRED", DEFERRED: "DEFERRED", FUNDING: "DEFERRED" },
  funded: { FUNDING: "SUBMITTED" },
  replace: { FUNDING: "FUNDING", SUBMITTED: "SUBMITTED" },
  reorg: { FUNDING: "FUNDING", SUBMITTED: "SUBMITTED" },
  confirm: { SUBMITTED: "CONFIRMED" },
  expire: { SUBMITTED: "PENDING" },
  fail: { PENDING: "FAILED", FUNDING: "FAILED", SUBMITTED: "FAILED", DEFERRED: "FAILED" },
  retry: { FAILED: "PENDING" },
};

/** The status after `event`, or null when the event does not apply in `status`. */
export function nextSweepStatus(status: SweepStatus, event: SweepEvent): SweepStatus | null {
  return transitions[event][status] ?? null;
}

/** Statuses the sweeper still works on (a failed sweep waits for a retry). */
export const openSweepStatuses = [
  "PENDING",
  "FUNDING",
  "SUBMITTED",
  "DEFERRED",
] as const satisfies SweepStatus[];
