import type { Tx } from "../db/client";

/**
 * How many of the organization's invoices on `network` hold received value (confirmed, or being
 * confirmed) that no sweep has taken yet: money a new settlement wallet would be paid at once.
 */
export async function countWaitingInvoices(tx: Tx, organizationId: string, network: string) {
  const [row] = await tx.$queryRaw<{ waiting: number }[]>`
    SELECT count(*)::int AS "waiting"
      FROM "Invoice" i
     WHERE i."organizationId" = ${organizationId} AND i."network" = ${network}
       AND COALESCE((SELECT SUM(p."amount") FROM "Payment" p
                      WHERE p."invoiceId" = i."id" AND p."status" IN ('CONFIRMED', 'CONFIRMING')), 0)
         > COALESCE((SELECT SUM(s."amount") FROM "Sweep" s WHERE s."invoiceId" = i."id"), 0)`;
  return row?.waiting ?? 0;
}
