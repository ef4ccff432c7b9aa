import { describe, expect, it } from "vitest";
import {
  effectiveSessionStatus,
  type SessionEvent,
  type SessionStatus,
  sessionEvents,
  sessionStatuses,
  transitionSession,
} from "./session-state";

const now = new Date("2026-01-01T12:00:00Z");
const future = new Date("2026-01-01T13:00:00Z");
const past = new Date("2026-01-01T11:00:00Z");

// Every (status, expired?, event) combination and its outcome: the full table, so adding a state
// or event without deciding its transitions fails here.
const expected: Record<
  SessionStatus,
  Record<"live" | "expired", Record<SessionEvent, SessionStatus | null>>
> = {
  OPEN: {
    live: { begin_payment: "PROCESSING", invoice_created: null, expire: null, withdraw: "EXPIRED" },
    expired: { begin_payment: null, invoice_created: null, expire: "EXPIRED", withdraw: "EXPIRED" },
  },
  PROCESSING: {
    live: { begin_payment: null, invoice_created: "COMPLETED", expire: null, withdraw: "EXPIRED" },
    expired: { begin_payment: null, invoice_created: null, expire: "EXPIRED", withdraw: "EXPIRED" },
  },
  COMPLETED: {
    live: { begin_payment: null, invoice_created: null, expire: null, withdraw: "EXPIRED" },
    expired: { begin_payment: null, invoice_created: null, expire: null, withdraw: "EXPIRED" },
  },
  EXPIRED: {
    live: { begin_payment: null, invoice_created: null, expire: null, withdraw: null },
    expired: { begin_payment: null, invoice_created: null, expire: null, withdraw: null },
  },
};

const cases = sessionStatuses.flatMap((status) =>
  (["live", "expired"] as const).flatMap((clock) =>
    sessionEvents.map((event) => [status, clock, event, expected[status][clock][event]] as const),
  ),
);

describe("transitionSession", () => {
  it.each(cases)("%s (%s) + %s -> %s", (status, clock, event, next) => {
    const result = transitionSession({ status, expiresAt: clock === "live" ? future : past }, event, now);
    if (next === null) {
      expect(result.ok).toBe(false);
      expect(result.status).toBe(
        effectiveSessionStatus({ status, expiresAt: clock === "live" ? future : past }, now),
      );
    } else {
      expect(result).toEqual({ ok: true, status: next });
    }
  });
});

describe("effectiveSessionStatus", () => {
  it.each([
    ["OPEN", future, "OPEN"],
    ["OPEN", past, "EXPIRED"],
    ["OPEN", now, "EXPIRED"],
    ["PROCESSING", past, "EXPIRED"],
    ["COMPLETED", past, "COMPLETED"],
    ["EXPIRED", future, "EXPIRED"],
  ] as const)("%s expiring %s is %s", (status, expiresAt, effective) => {
    expect(effectiveSessionStatus({ status, expiresAt }, now)).toBe(effective);
  });
});
