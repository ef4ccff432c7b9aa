import { describe, expect, it } from "vitest";
import {
  planSubscription,
  type RenewalView,
  type SubscriptionEvent,
  type SubscriptionStatus,
  transitionSubscription,
} from "./subscription-state";

type Expected = [SubscriptionStatus, "unpaid" | "requested" | null, string | null] | null;
// Every (status, event) pair, written out: next status, cancellation reason, event emitted; null
// where the event is not allowed.
const table: [SubscriptionStatus, SubscriptionEvent, Expected][] = [
  ["ACTIVE", "renewal_paid", ["ACTIVE", null, null]],
  ["ACTIVE", "renewal_overdue", ["PAST_DUE", null, "subscription.overdue"]],
  ["ACTIVE", "grace_ended", null],
  ["ACTIVE", "cancel_now", ["CANCELLED", "requested", "subscription.cancelled"]],
  ["ACTIVE", "period_ended", ["CANCELLED", "requested", "subscription.cancelled"]],
  ["PAST_DUE", "renewal_paid", ["ACTIVE", null, null]],
  ["PAST_DUE", "renewal_overdue", null],
  ["PAST_DUE", "grace_ended", ["CANCELLED", "unpaid", "subscription.cancelled"]],
  ["PAST_DUE", "cancel_now", ["CANCELLED", "requested", "subscription.cancelled"]],
  ["PAST_DUE", "period_ended", null],
  ["CANCELLED", "renewal_paid", null],
  ["CANCELLED", "renewal_overdue", null],
  ["CANCELLED", "grace_ended", null],
  ["CANCELLED", "cancel_now", null],
  ["CANCELLED", "period_ended", null],
];

describe("transitionSubscription", () => {
  it.each(table)("%s + %s -> %j", (status, event, expected) => {
    const result = transitionSubscription(status, event);
    if (expected === null) {
      expect(result).toEqual({ ok: false, status });
    } else {
      expect(result).toEqual({
        ok: true,
        status: expected[0],
        cancellationReason: expected[1],
        emit: expected[2],
      });
    }
  });
});

const hour = 3_600_000;
const start = new Date("2026-03-01T00:00:00Z");
const end = new Date("2026-04-01T00:00:00Z");
const grace = 72 * hour;
const t = (offsetHours: number) => new Date(end.getTime() + offsetHours * hour);
const renewal = (status: NonNullable<RenewalView>["status"]): RenewalView => ({ status, deadline: end });

// status, cancelAtPeriodEnd, renewal invoice, now (hours from period end) -> action, next look (hours from period end or null).
const plans: [SubscriptionStatus, boolean, RenewalView, number, string, number | null][] = [
  ["ACTIVE", false, null, -48, "wait", -24],
  ["ACTIVE", false, null, -24, "issue_renewal", -24],
  ["ACTIVE", false, null, 5, "issue_renewal", 5],
  ["ACTIVE", false, renewal("AWAITING_PAYMENT"), -10, "wait", 0],
  ["ACTIVE", false, renewal("PARTIALLY_PAID"), 0, "renewal_overdue", 0],
  ["ACTIVE", false, renewal("OVERDUE"), 1, "renewal_overdue", 1],
  ["ACTIVE", false, renewal("CONFIRMING"), 1, "wait", 1 + 1 / 6],
  ["ACTIVE", false, renewal("CONFIRMED"), -10, "renewal_paid", -10],
  ["ACTIVE", true, null, -24, "wait", 0],
  ["ACTIVE", true, null, 0, "period_ended", 0],
  ["ACTIVE", true, renewal("AWAITING_PAYMENT"), 0, "period_ended", 0],
  ["PAST_DUE", false, renewal("OVERDUE"), 1, "wait", 72],
  ["PAST_DUE", false, renewal("OVERDUE"), 72, "grace_ended", 72],
  ["PAST_DUE", false, renewal("CONFIRMING"), 72, "wait", 72 + 1 / 6],
  ["PAST_DUE", false, renewal("CONFIRMED"), 30, "renewal_paid", 30],
  ["PAST_DUE", true, renewal("OVERDUE"), 72, "grace_ended", 72],
  ["CANCELLED", false, renewal("CONFIRMED"), 1, "wait", null],
  ["CANCELLED", true, null, 1, "wait", null],
];

describe("planSubscription", () => {
  it.each(plans)(
    "%s (cancel at end %s, renewal %j) at %sh -> %s, next %sh",
    (status, atEnd, inv, now, action, next) => {
      const plan = planSubscription(
        { status, cancelAtPeriodEnd: atEnd, currentPeriodStart: start, currentPeriodEnd: end },
        inv,
        grace,
        24 * hour,
        t(now),
      );
      expect(plan.action).toBe(action);
      expect(plan.nextActionAt?.getTime() ?? null).toBe(next === null ? null : t(next).getTime());
    },
  );
});
