// The subscription state machine, pure. Callers write its result in a transaction,
// conditional on the status they read, so two workers cannot both apply a transition.
//   ACTIVE   --renewal_overdue-->       PAST_DUE  (subscription.overdue)
//   PAST_DUE --renewal_paid-->          ACTIVE    (within grace; the anchor never moves)
//   PAST_DUE --grace_ended-->           CANCELLED (subscription.cancelled, reason unpaid)
//   ACTIVE | PAST_DUE --cancel_now-->   CANCELLED (reason requested)
//   ACTIVE   --period_ended-->          CANCELLED (cancel at period end was asked; reason requested)
//   ACTIVE   --renewal_paid-->          ACTIVE    (the next period starts)

export type SubscriptionStatus = "ACTIVE" | "PAST_DUE" | "CANCELLED";
export type SubscriptionEvent =
  | "renewal_paid"
  | "renewal_overdue"
  | "grace_ended"
  | "cancel_now"
  | "period_ended";
export type CancellationReason = "unpaid" | "requested";

export const subscriptionStatuses: readonly SubscriptionStatus[] = ["ACTIVE", "PAST_DUE", "CANCELLED"];
export const subscriptionEvents: readonly SubscriptionEvent[] = [
  "renewal_paid",
  "renewal_overdue",
  "grace_ended",
  "cancel_now",
  "period_ended",
];

export type SubscriptionTransition =
  | {
      ok: true;
      status: SubscriptionStatus;
      cancellationReason: CancellationReason | null;
      emit: "subscription.overdue" | "subscription.cancelled" | null;
    }
  | { ok: false; status: SubscriptionStatus };

export function transitionSubscription(
  status: SubscriptionStatus,
  event: SubscriptionEvent,
): SubscriptionTransition {
  const cancelled = (reason: CancellationReason) =>
    ({ ok: true, status: "CANCELLED", cancellationReason: reason, emit: "subscription.cancelled" }) as const;
  if (status === "CANCELLED") return { ok: false, status };
  switch (event) {
    case "renewal_paid":
      return { ok: true, status: "ACTIVE", cancellationReason: null, emit: null };
    case "renewal_overdue":
      return status === "ACTIVE"
        ? { ok: true, status: "PAST_DUE", cancellationReason: null, emit: "subscription.overdue" }
        : { ok: false, status };
    case "grace_ended":
      return status === "PAST_DUE" ? cancelled("unpaid") : { ok: false, status };
    case "cancel_now":
      return cancelled("requested");
    case "period_ended":
      return status === "ACTIVE" ? cancelled("requested") : { ok: false, status };
  }
}

export type SubscriptionView = {
  status: SubscriptionStatus;
  cancelAtPeriodEnd: boolean;
  currentPeriodStart: Date;
  currentPeriodEnd: Date;
};
/** The invoice of the next period, once issued. */
export type RenewalView = {
  status: "AWAITING_PAYMENT" | "PARTIALLY_PAID" | "CONFIRMING" | "CONFIRMED" | "OVERDUE";
  deadline: Date;
} | null;

export type SubscriptionPlan = {
  /** What is due now ("wait" when nothing is). */
  action: "issue_renewal" | Exclude<SubscriptionEvent, "cancel_now"> | "wait";
  /** When to look again if nothing changes; null once nothing more can happen. */
  nextActionAt: Date | null;
};

/** While a renewal's payment waits for confirmations, the scheduler looks again this often. */
export const recheckMs = 10 * 60 * 1000;

/**
 * The scheduler's decision for one subscription at `now`, pure: which step is due and when to
 * look again. `graceMs` counts from the period end the renewal was due by.
 */
export function planSubscription(
  subscription: SubscriptionView,
  renewal: RenewalView,
  graceMs: number,
  renewalLeadMs: number,
  now: Date,
): SubscriptionPlan {
  const at = now.getTime();
  const end = subscription.currentPeriodEnd.getTime();
  if (subscription.status === "CANCELLED") return { action: "wait", nextActionAt: null };
  if (renewal?.status === "CONFIRMED") return { action: "renewal_paid", nextActionAt: now };
  if (subscription.status === "PAST_DUE") {
    const graceEnd = end + graceMs;
    if (at < graceEnd) return { action: "wait", nextActionAt: new Date(graceEnd) };
    // Paid within grace but still confirming: the watcher's confirmation decides.
    if (renewal?.status === "CONFIRMING") return { action: "wait", nextActionAt: new Date(at + recheckMs) };
    return { action: "grace_ended", nextActionAt: now };
  }
  if (subscription.cancelAtPeriodEnd) {
    return at >= end
      ? { action: "period_ended", nextActionAt: now }
      : { action: "wait", nextActionAt: new Date(end) };
  }
  if (!renewal) {
    const issueAt = Math.max(end - renewalLeadMs, subscription.currentPeriodStart.getTime());
    return at >= issueAt
      ? { action: "issue_renewal", nextActionAt: now }
      : { action: "wait", nextActionAt: new Date(issueAt) };
  }
  const deadline = renewal.deadline.getTime();
  if (at < deadline) return { action: "wait", nextActionAt: new Date(deadline) };
  if (renewal.status === "CONFIRMING") return { action: "wait", nextActionAt: new Date(at + recheckMs) };
  return { action: "renewal_overdue", nextActionAt: now };
}
