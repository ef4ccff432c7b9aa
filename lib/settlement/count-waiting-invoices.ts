import type { Tx } from "../db/client";
import { lateWatchWindowMs } from "../payments/watch-set";

/**
 * How many of the organization's invoices on `network` a new settlement wallet would be paid for:
 * those holding received value (confirmed, or being confirmed) that no sweep has taken yet, and
 * those still open to payment (the watcher's set: not confirmed, deadline within the late window,
 * or a past-due subscription's renewal), whose money is swept to whatever wallet is in force when
 * the buyer pays.
 */
export async function countWaitingInvoices(tx: Tx, organizationId: string, network: string, now: Date) {
  const lateCutoff = new Date(now.getTime() - lateWatchWindowMs);
  const [row] = await tx.$queryRaw<{ waiting: number }[]>`
    SELECT count(*)::int AS "waiting"
      FROM "Invoice" i
     WHERE i."organizationId" = ${organizationId} AND i."network" = ${network}
       AND ((i."status" <> 'CONFIRMED'
              AND (i."deadline" >= ${lateCutoff}
                   OR EXISTS (SELECT 1 FROM "Subscription" s
                               WHERE s."id" = i."subscriptionId" AND s."status" = 'PAST_DUE')))
         OR COALESCE((SELECT SUM(p."amount") FROM "Payment" p
                       WHERE p."invoiceId" = i."id" AND p."status" IN ('CONFIRMED', 'CONFIRMING')), 0)
          > COALESCE((SELECT SUM(s."amount") FROM "Sweep" s WHERE s."invoiceId" = i."id"), 0))`;
  return row?.waiting ?? 0;
}
