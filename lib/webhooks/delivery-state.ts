// The delivery state machine, pure (docs/webhooks.md, "Delivery and retries").
//
// Attempts of a round happen at 0, 10, 30, 90 and 270 s after the round began. 2xx: delivered.
// 5xx, 429, 3xx (never followed), timeouts and connection errors: retried; Retry-After may push
// the next attempt later, never earlier. Another 4xx: failed for good. Five failures in a round:
// a one-hour cooldown, then a new round, until 72 hours after the first attempt; then failed for
// good (it can still be redelivered by hand).

export const roundSchedule = [0, 10, 30, 90, 270] as const;
export const attemptsPerRound = roundSchedule.length;
export const cooldownMs = 60 * 60 * 1000;
export const giveUpAfterMs = 72 * 60 * 60 * 1000;

export type DeliveryStatus = "PENDING" | "COOLDOWN" | "DELIVERED" | "FAILED";

export type DeliveryProgress = {
  status: DeliveryStatus;
  roundAttempts: number;
  roundStartedAt: Date | null;
  firstAttemptAt: Date | null;
  nextAttemptAt: Date | null;
};

export type AttemptOutcome =
  | { kind: "response"; status: number; retryAfterSeconds?: number }
  | { kind: "network_error" }
  | { kind: "timeout" };

export type AttemptClass = "success" | "retryable" | "permanent";

export function classifyAttempt(outcome: AttemptOutcome): AttemptClass {
  if (outcome.kind !== "response") return "retryable";
  if (outcome.status >= 200 && outcome.status < 300) return "success";
  if (outcome.status === 429 || outcome.status >= 500 || (outcome.status >= 300 && outcome.status < 400)) {
    return "retryable";
  }
  return "permanent";
}

/** The progress after an attempt made at `now` (the attempt that was due). */
export function afterAttempt(
  progress: DeliveryProgress,
  outcome: AttemptOutcome,
  now: Date,
): DeliveryProgress {
  const roundStartedAt =
    progress.status === "PENDING" && progress.roundStartedAt ? progress.roundStartedAt : now;
  const firstAttemptAt = progress.firstAttemptAt ?? now;
  const roundAttempts = (progress.status === "PENDING" ? progress.roundAttempts : 0) + 1;
  const base = { roundStartedAt, firstAttemptAt, roundAttempts };

  const verdict = classifyAttempt(outcome);
  if (verdict === "success") return { ...base, status: "DELIVERED", nextAttemptAt: null };
  if (verdict === "permanent") return { ...base, status: "FAILED", nextAttemptAt: null };

  const roundOver = roundAttempts >= attemptsPerRound;
  let next = roundOver
    ? new Date(now.getTime() + cooldownMs)
    : new Date(roundStartedAt.getTime() + roundSchedule[roundAttempts] * 1000);
  const retryAfter = outcome.kind === "response" ? outcome.retryAfterSeconds : undefined;
  if (retryAfter !== undefined && retryAfter > 0) {
    next = new Date(Math.max(next.getTime(), now.getTime() + retryAfter * 1000));
  }
  if (next.getTime() < now.getTime()) next = now;
  if (next.getTime() - firstAttemptAt.getTime() > giveUpAfterMs) {
    return { ...base, status: "FAILED", nextAttemptAt: null };
  }
  return { ...base, status: roundOver ? "COOLDOWN" : "PENDING", nextAttemptAt: next };
}

/** Parses Retry-After (seconds, or an HTTP date) into seconds from now. */
export function parseRetryAfter(header: string | null, now: Date): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now.getTime()) / 1000));
}
