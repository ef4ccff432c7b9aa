import { describe, expect, it } from "vitest";
import { newDelivery } from "../events/fan-out-event";
import {
  type AttemptOutcome,
  afterAttempt,
  classifyAttempt,
  type DeliveryProgress,
  parseRetryAfter,
} from "./delivery-state";

const t0 = new Date("2026-01-01T00:00:00Z");
const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);
const fresh: DeliveryProgress = newDelivery({ id: "evt_1", organizationId: "org_1" }, "we_1", t0);
const fail: AttemptOutcome = { kind: "response", status: 500 };

/** Runs attempts at their due times and returns the progress after each. */
function run(outcomes: AttemptOutcome[], start = fresh) {
  const history: DeliveryProgress[] = [];
  let progress = start;
  let now = progress.nextAttemptAt ?? t0;
  for (const outcome of outcomes) {
    progress = afterAttempt(progress, outcome, now);
    history.push(progress);
    if (!progress.nextAttemptAt) break;
    now = progress.nextAttemptAt;
  }
  return history;
}

describe("classifyAttempt", () => {
  it.each<[AttemptOutcome, string]>([
    [{ kind: "response", status: 200 }, "success"],
    [{ kind: "response", status: 204 }, "success"],
    [{ kind: "response", status: 299 }, "success"],
    [{ kind: "response", status: 301 }, "retryable"],
    [{ kind: "response", status: 302 }, "retryable"],
    [{ kind: "response", status: 308 }, "retryable"],
    [{ kind: "response", status: 400 }, "permanent"],
    [{ kind: "response", status: 401 }, "permanent"],
    [{ kind: "response", status: 403 }, "permanent"],
    [{ kind: "response", status: 404 }, "permanent"],
    [{ kind: "response", status: 410 }, "permanent"],
    [{ kind: "response", status: 429 }, "retryable"],
    [{ kind: "response", status: 500 }, "retryable"],
    [{ kind: "response", status: 503 }, "retryable"],
    [{ kind: "response", status: 100 }, "permanent"],
    [{ kind: "timeout" }, "retryable"],
    [{ kind: "network_error" }, "retryable"],
  ])("%j is %s", (outcome, verdict) => {
    expect(classifyAttempt(outcome)).toBe(verdict);
  });
});

describe("afterAttempt", () => {
  it("delivers on a first-try 2xx", () => {
    expect(run([{ kind: "response", status: 200 }])).toEqual([
      { status: "DELIVERED", roundAttempts: 1, roundStartedAt: t0, firstAttemptAt: t0, nextAttemptAt: null },
    ]);
  });

  it("retries 500, 500 at 10 s and 30 s after the first attempt, then delivers", () => {
    const history = run([fail, fail, { kind: "response", status: 200 }]);
    expect(history.map((step) => step.nextAttemptAt)).toEqual([at(10), at(30), null]);
    expect(history.at(-1)?.status).toBe("DELIVERED");
  });

  it("cools down for an hour after five failures, then starts a new round on the same schedule", () => {
    const history = run(Array(8).fill(fail));
    expect(history.map((step) => [step.status, step.nextAttemptAt?.getTime() ?? null])).toEqual([
      ["PENDING", at(10).getTime()],
      ["PENDING", at(30).getTime()],
      ["PENDING", at(90).getTime()],
      ["PENDING", at(270).getTime()],
      ["COOLDOWN", at(270 + 3600).getTime()],
      ["PENDING", at(270 + 3600 + 10).getTime()],
      ["PENDING", at(270 + 3600 + 30).getTime()],
      ["PENDING", at(270 + 3600 + 90).getTime()],
    ]);
    expect(history[5].roundAttempts).toBe(1);
  });

  it.each([400, 401, 403, 404, 422])("fails for good on %i with no retry", (status) => {
    expect(run([{ kind: "response", status }])).toEqual([
      { status: "FAILED", roundAttempts: 1, roundStartedAt: t0, firstAttemptAt: t0, nextAttemptAt: null },
    ]);
  });

  it.each<AttemptOutcome>([
    { kind: "timeout" },
    { kind: "network_error" },
    { kind: "response", status: 302 },
  ])("retries %j on schedule", (outcome) => {
    expect(run([outcome])[0]).toMatchObject({ status: "PENDING", nextAttemptAt: at(10) });
  });

  it("lets Retry-After push the next attempt later, never earlier", () => {
    expect(run([{ kind: "response", status: 429, retryAfterSeconds: 120 }])[0].nextAttemptAt).toEqual(
      at(120),
    );
    expect(run([{ kind: "response", status: 503, retryAfterSeconds: 3 }])[0].nextAttemptAt).toEqual(at(10));
  });

  it("gives up 72 hours after the first attempt", () => {
    const history = run(Array(1000).fill(fail));
    const last = history.at(-1) as DeliveryProgress;
    expect(last.status).toBe("FAILED");
    expect(last.nextAttemptAt).toBeNull();
    // A round with its cooldown lasts 270 s + 1 h: rounds start at k × 3870 s, and the last one
    // that starts within 72 hours is round 66 (k = 0…66); its fifth failure would cool down past 72 h.
    expect(history.length).toBe(67 * 5);
    const previous = history.at(-2) as DeliveryProgress;
    expect((previous.nextAttemptAt as Date).getTime() - t0.getTime()).toBeLessThanOrEqual(72 * 3600 * 1000);
  });

  it("starts over when redelivered by hand after failing for good", () => {
    const failed = run([{ kind: "response", status: 404 }])[0];
    expect(failed.status).toBe("FAILED");
    const restarted = newDelivery({ id: "evt_1", organizationId: "org_1" }, "we_1", at(500));
    expect(restarted).toMatchObject({ status: "PENDING", nextAttemptAt: at(500), roundAttempts: 0 });
    expect(afterAttempt(restarted, { kind: "response", status: 200 }, at(500))).toMatchObject({
      status: "DELIVERED",
      firstAttemptAt: at(500),
    });
  });
});

describe("parseRetryAfter", () => {
  it.each<[string | null, number | undefined]>([
    [null, undefined],
    ["120", 120],
    [" 5 ", 5],
    ["Thu, 01 Jan 2026 00:01:00 GMT", 60],
    ["soon", undefined],
  ])("%j -> %j", (header, seconds) => {
    expect(parseRetryAfter(header, t0)).toBe(seconds);
  });
});
