import { describe, expect, it } from "vitest";
import {
  nextSettlementChangeStatus,
  type SettlementChangeEvent,
  type SettlementChangeStatus,
} from "./settlement-change-state";

// Every (status, event) pair, written out: current status, event, next status (null: refused).
const table: [SettlementChangeStatus, SettlementChangeEvent, SettlementChangeStatus | null][] = [
  ["PROPOSED", "confirm", "SCHEDULED"],
  ["PROPOSED", "reject", "REJECTED"],
  ["PROPOSED", "cancel", "CANCELLED"],
  ["PROPOSED", "apply", null],
  ["SCHEDULED", "confirm", null],
  ["SCHEDULED", "reject", null],
  ["SCHEDULED", "cancel", "CANCELLED"],
  ["SCHEDULED", "apply", "APPLIED"],
  ["APPLIED", "confirm", null],
  ["APPLIED", "reject", null],
  ["APPLIED", "cancel", null],
  ["APPLIED", "apply", null],
  ["REJECTED", "confirm", null],
  ["REJECTED", "reject", null],
  ["REJECTED", "cancel", null],
  ["REJECTED", "apply", null],
  ["CANCELLED", "confirm", null],
  ["CANCELLED", "reject", null],
  ["CANCELLED", "cancel", null],
  ["CANCELLED", "apply", null],
];

describe("settlement change state machine", () => {
  it.each(table)("%s --%s--> %s", (status, event, next) => {
    expect(nextSettlementChangeStatus(status, event)).toBe(next);
  });
});
