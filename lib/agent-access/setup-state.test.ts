import { describe, expect, it } from "vitest";
import type { AgentSetupStatus } from "../generated/prisma/client";
import { checkinOutcome, decisionOutcome, setupView } from "./setup-state";

type Row = [AgentSetupStatus, boolean, string, string, string];

// status, expired → status view, check-in, decision
const table: Row[] = [
  ["PENDING", false, "pending", "pending", "decide"],
  ["PENDING", true, "expired", "expired", "expired"],
  ["APPROVED", false, "approved", "issue", "already_decided"],
  ["APPROVED", true, "expired", "expired", "already_decided"],
  ["DENIED", false, "denied", "denied", "already_decided"],
  ["DENIED", true, "denied", "denied", "already_decided"],
  ["COMPLETED", false, "approved", "used", "already_decided"],
  ["COMPLETED", true, "approved", "used", "already_decided"],
];

describe("agent setup state", () => {
  it.each(table)(
    "%s (expired: %s) → status %s, check-in %s, decision %s",
    (status, expired, view, checkin, decision) => {
      expect(setupView(status, expired)).toBe(view);
      expect(checkinOutcome(status, expired)).toBe(checkin);
      expect(decisionOutcome(status, expired)).toBe(decision);
    },
  );
});
