import type { recurringObject } from "crypto-checkout-agent/shapes";
import type { z } from "zod";
import type { RecurringInterval } from "../generated/prisma/client";

/** The recurring price of a paylink or session, or null for a one-time price. */
export function serializeRecurring(row: {
  recurringInterval: RecurringInterval | null;
  recurringIntervalCount: number | null;
}): z.output<typeof recurringObject> {
  return row.recurringInterval && row.recurringIntervalCount
    ? { interval: row.recurringInterval, intervalCount: row.recurringIntervalCount }
    : null;
}

/** "per month", "every 3 weeks": how the price repeats, in words for pages and emails. */
export function describeInterval(interval: RecurringInterval, intervalCount: number): string {
  return intervalCount === 1 ? `per ${interval}` : `every ${intervalCount} ${interval}s`;
}
