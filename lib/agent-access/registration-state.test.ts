import { describe, expect, it } from "vitest";
import type { AgentRegistrationStatus } from "../generated/prisma/client";
import { collectOutcome, confirmOutcome } from "./registration-state";

// status, expired → poll with the check-in token, opening the link
const table: [AgentRegistrationStatus, boolean, string, string][] = [
  ["PENDING", false, "pending", "confirm"],
  ["PENDING", true, "expired", "expired"],
  ["CONFIRMED", false, "issue", "already_confirmed"],
  ["CONFIRMED", true, "expired", "already_confirmed"],
  ["COMPLETED", false, "completed", "already_confirmed"],
  ["COMPLETED", true, "completed", "already_confirmed"],
];

describe("agent signup state", () => {
  it.each(table)("%s (expired: %s) → poll %s, link %s", (status, expired, collect, confirm) => {
    expect(collectOutcome(status, expired)).toBe(collect);
    expect(confirmOutcome(status, expired)).toBe(confirm);
  });
});
