// The refund state machine, pure. Callers apply an event and write the resulting status inside the
// transaction that records what caused it (the signer: with the signed transaction's bytes):
//   REQUIRES_APPROVAL --approve_claim--> PENDING_CLAIM  (an owner confirmed an agent's claim link)
//   REQUIRES_APPROVAL --approve_send--> PENDING         (an owner confirmed an agent's refund)
//   PENDING_CLAIM --claim--> PENDING                    (the buyer entered an address)
//   PENDING_CLAIM --claim_unproven--> REQUIRES_APPROVAL (a credential's link was claimed without the
//                                                        emailed code: an owner decides the address)
//   PENDING --wait--> PENDING                           (refund wallet too low: the reason is shown)
//   PENDING --hold--> REQUIRES_APPROVAL                 (the signer will not pay an automatic refund
//                                                        to a contract unless an owner confirms it)
//   PENDING --submit--> SUBMITTED                       (signed, recorded, broadcast)
//   SUBMITTED --replace|reorg--> SUBMITTED              (fee bump, or re-broadcast after a reorg)
//   SUBMITTED --confirm--> SUCCEEDED                    (the transfer is at confirmation depth)
//   REQUIRES_APPROVAL --reject--> FAILED                (an owner said no)
//   PENDING_CLAIM/PENDING --cancel--> FAILED            (the merchant withdrew it before it was sent)
//   PENDING_CLAIM --expire--> FAILED                    (nobody claimed it in time)
//   PENDING/SUBMITTED --fail--> FAILED                  (reverted, or the network was dropped)
// A failed refund no longer counts against what the invoice may still refund.

export const refundStatuses = [
  "REQUIRES_APPROVAL",
  "PENDING_CLAIM",
  "PENDING",
  "SUBMITTED",
  "SUCCEEDED",
  "FAILED",
] as const;
export type RefundStatus = (typeof refundStatuses)[number];

export type RefundEvent =
  | "approve_claim"
  | "approve_send"
  | "reject"
  | "claim"
  | "claim_unproven"
  | "cancel"
  | "expire"
  | "wait"
  | "hold"
  | "submit"
  | "replace"
  | "reorg"
  | "confirm"
  | "fail";

const transitions: Record<RefundEvent, Partial<Record<RefundStatus, RefundStatus>>> = {
  approve_claim: { REQUIRES_APPROVAL: "PENDING_CLAIM" },
  approve_send: { REQUIRES_APPROVAL: "PENDING" },
  reject: { REQUIRES_APPROVAL: "FAILED" },
  claim: { PENDING_CLAIM: "PENDING" },
  claim_unproven: { PENDING_CLAIM: "REQUIRES_APPROVAL" },
  cancel: { PENDING_CLAIM: "FAILED", PENDING: "FAILED" },
  expire: { PENDING_CLAIM: "FAILED" },
  wait: { PENDING: "PENDING" },
  hold: { PENDING: "REQUIRES_APPROVAL" },
  submit: { PENDING: "SUBMITTED" },
  replace: { SUBMITTED: "SUBMITTED" },
  reorg: { SUBMITTED: "SUBMITTED" },
  confirm: { SUBMITTED: "SUCCEEDED" },
  fail: { PENDING: "FAILED", SUBMITTED: "FAILED" },
};

/** The status after `event`, or null when the event does not apply in `status`. */
export function nextRefundStatus(status: RefundStatus, event: RefundEvent): RefundStatus | null {
  return transitions[event][status] ?? null;
}

/** Statuses the signer works on. */
export const signerRefundStatuses = ["PENDING", "SUBMITTED"] as const satisfies RefundStatus[];

/** Statuses whose amount is spoken for: all but FAILED. */
export const countedRefundStatuses = [
  "REQUIRES_APPROVAL",
  "PENDING_CLAIM",
  "PENDING",
  "SUBMITTED",
  "SUCCEEDED",
] as const satisfies RefundStatus[];
