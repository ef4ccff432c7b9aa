export type RecurringInterval = "day" | "week" | "month" | "year";
export const recurringIntervals: readonly RecurringInterval[] = ["day", "week", "month", "year"];

const dayMs = 24 * 60 * 60 * 1000;

/** A renewal invoice is due within 24 hours and issued that long before its period (docs/api.md, "Subscriptions"). */
export const renewalDeadlineMs = dayMs;

const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month + 1, 0)).getUTCDate();

/**
 * The start of period `n`: the anchor plus n × count intervals, always computed from the anchor,
 * so a month-end anchor keeps its day (Jan 31 → Feb 28/29 → Mar 31) and nothing drifts.
 */
export function periodStart(
  anchor: Date,
  interval: RecurringInterval,
  intervalCount: number,
  n: number,
): Date {
  const steps = intervalCount * n;
  if (interval === "day") return new Date(anchor.getTime() + steps * dayMs);
  if (interval === "week") return new Date(anchor.getTime() + steps * 7 * dayMs);
  const months = interval === "month" ? steps : steps * 12;
  const total = anchor.getUTCMonth() + months;
  const year = anchor.getUTCFullYear() + Math.floor(total / 12);
  const month = ((total % 12) + 12) % 12;
  const day = Math.min(anchor.getUTCDate(), daysInMonth(year, month));
  const result = new Date(anchor);
  result.setUTCFullYear(year, month, day);
  return result;
}

/** Period n as [start, end). */
export function periodBounds(
  anchor: Date,
  interval: RecurringInterval,
  intervalCount: number,
  n: number,
): { start: Date; end: Date } {
  return {
    start: periodStart(anchor, interval, intervalCount, n),
    end: periodStart(anchor, interval, intervalCount, n + 1),
  };
}
