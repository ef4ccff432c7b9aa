import { describe, expect, it } from "vitest";
import { nextRefundStatus, type RefundEvent, type RefundStatus, refundStatuses } from "./refund-state";

// Every (status, event) pair, written out: current status, event, next status (null: refused).
const table: [RefundStatus, RefundEvent, RefundStatus | null][] = [
  ["REQUIRES_APPROVAL", "approve_claim", "PENDING_CLAIM"],
  ["REQUIRES_APPROVAL", "approve_send", "PENDING"],
  ["REQUIRES_APPROVAL", "reject", "FAILED"],
  ["REQUIRES_APPROVAL", "claim_unproven", null],
  ["REQUIRES_APPROVAL", "claim", null],
  ["REQUIRES_APPROVAL", "cancel", null],
  ["REQUIRES_APPROVAL", "expire", null],
  ["REQUIRES_APPROVAL", "wait", null],
  ["REQUIRES_APPROVAL", "hold", null],
  ["REQUIRES_APPROVAL", "submit", null],
  ["REQUIRES_APPROVAL", "replace", null],
  ["REQUIRES_APPROVAL", "reorg", null],
  ["REQUIRES_APPROVAL", "confirm", null],
  ["REQUIRES_APPROVAL", "fail", null],
  ["PENDING_CLAIM", "approve_claim", null],
  ["PENDING_CLAIM", "approve_send", null],
  ["PENDING_CLAIM", "reject", null],
  ["PENDING_CLAIM", "claim_unproven", "REQUIRES_APPROVAL"],
  ["PENDING_CLAIM", "claim", "PENDING"],
  ["PENDING_CLAIM", "cancel", "FAILED"],
  ["PENDING_CLAIM", "expire", "FAILED"],
  ["PENDING_CLAIM", "wait", null],
  ["PENDING_CLAIM", "hold", null],
  ["PENDING_CLAIM", "submit", null],
  ["PENDING_CLAIM", "replace", null],
  ["PENDING_CLAIM", "reorg", null],
  ["PENDING_CLAIM", "confirm", null],
  ["PENDING_CLAIM", "fail", null],
  ["PENDING", "approve_claim", null],
  ["PENDING", "approve_send", null],
  ["PENDING", "reject", null],
  ["PENDING", "claim_unproven", null],
  ["PENDING", "claim", null],
  ["PENDING", "cancel", "FAILED"],
  ["PENDING", "expire", null],
  ["PENDING", "wait", "PENDING"],
  ["PENDING", "hold", "REQUIRES_APPROVAL"],
  ["PENDING", "submit", "SUBMITTED"],
  ["PENDING", "replace", null],
  ["PENDING", "reorg", null],
  ["PENDING", "confirm", null],
  ["PENDING", "fail", "FAILED"],
  ["SUBMITTED", "approve_claim", null],
  ["SUBMITTED", "approve_send", null],
  ["SUBMITTED", "reject", null],
  ["SUBMITTED", "claim_unproven", null],
  ["SUBMITTED", "claim", null],
  ["SUBMITTED", "cancel", null],
  ["SUBMITTED", "expire", null],
  ["SUBMITTED", "wait", null],
  ["SUBMITTED", "hold", null],
  ["SUBMITTED", "submit", null],
  ["SUBMITTED", "replace", "SUBMITTED"],
  ["SUBMITTED", "reorg", "SUBMITTED"],
  ["SUBMITTED", "confirm", "SUCCEEDED"],
  ["SUBMITTED", "fail", "FAILED"],
  ["SUCCEEDED", "approve_claim", null],
  ["SUCCEEDED", "approve_send", null],
  ["SUCCEEDED", "reject", null],
  ["SUCCEEDED", "claim_unproven", null],
  ["SUCCEEDED", "claim", null],
  ["SUCCEEDED", "cancel", null],
  ["SUCCEEDED", "expire", null],
  ["SUCCEEDED", "wait", null],
  ["SUCCEEDED", "hold", null],
  ["SUCCEEDED", "submit", null],
  ["SUCCEEDED", "replace", null],
  ["SUCCEEDED", "reorg", null],
  ["SUCCEEDED", "confirm", null],
  ["SUCCEEDED", "fail", null],
  ["FAILED", "approve_claim", null],
  ["FAILED", "approve_send", null],
  ["FAILED", "reject", null],
  ["FAILED", "claim_unproven", null],
  ["FAILED", "claim", null],
  ["FAILED", "cancel", null],
  ["FAILED", "expire", null],
  ["FAILED", "wait", null],
  ["FAILED", "hold", null],
  ["FAILED", "submit", null],
  ["FAILED", "replace", null],
  ["FAILED", "reorg", null],
  ["FAILED", "confirm", null],
  ["FAILED", "fail", null],
];

describe("refund state machine", () => {
  it("covers every status and event pair", () => {
    expect(table).toHaveLength(refundStatuses.length * 14);
  });

  it.each(table)("%s --%s--> %s", (status, event, next) => {
    expect(nextRefundStatus(status, event)).toBe(next);
  });

  it("ends in SUCCEEDED and FAILED: no event leaves them", () => {
    for (const [status, , next] of table)
      if (status === "SUCCEEDED" || status === "FAILED") expect(next).toBeNull();
  });
});
