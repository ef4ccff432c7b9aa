import { type Db, sqlPool } from "../db/client";
import { Money } from "../money/decimal";

const dayMs = 24 * 60 * 60 * 1000;

type VolumeRow = { day: string; amountUsd: string; invoices: number };
type CountRow = { kind: "session" | "invoice" | "subscription"; status: string; count: number };

/**
 * What the overview shows: confirmed volume per day over the last `days` (in USD: the sum of
 * the invoices' frozen amountUsd, the same number their events carry), session, invoice and live subscription counts by status, and the latest events. Three
 * aggregate queries, so the page costs the same with ten invoices or ten thousand.
 */
export async function getDashboardOverview(
  database: Db,
  organizationId: string,
  now = new Date(),
  days = 30,
) {
  const since = new Date(Math.floor(now.getTime() / dayMs) * dayMs - (days - 1) * dayMs);
  const pool = sqlPool(database);
  const [volume, counts, recent] = await Promise.all([
    // Confirmation time is when payment.confirmed was written; it is written once per invoice.
    pool.query<VolumeRow>(
      `SELECT to_char(e."createdAt" AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS "day",
         SUM(i."amountUsd")::text AS "amountUsd", COUNT(*)::int AS "invoices"
       FROM "Event" e JOIN "Invoice" i ON i."id" = e."invoiceId"
       WHERE e."organizationId" = $1 AND e."type" = 'payment.confirmed' AND e."livemode" AND e."createdAt" >= $2
       GROUP BY 1`,
      [organizationId, since],
    ),
    pool.query<CountRow>(
      `SELECT 'session' AS "kind", "status"::text AS "status", COUNT(*)::int AS "count"
         FROM "CheckoutSession" WHERE "organizationId" = $1 GROUP BY "status"
       UNION ALL
       SELECT 'invoice', "status"::text, COUNT(*)::int FROM "Invoice" WHERE "organizationId" = $1 GROUP BY "status"
       UNION ALL
       SELECT 'subscription', "status"::text, COUNT(*)::int FROM "Subscription" WHERE "organizationId" = $1
         AND "status" IN ('ACTIVE', 'PAST_DUE') GROUP BY "status"`,
      [organizationId],
    ),
    database.event.findMany({
      where: { organizationId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: 8,
      select: { id: true, type: true, invoiceId: true, livemode: true, createdAt: true },
    }),
  ]);

  const perDay = new Map(volume.rows.map((row) => [row.day, row]));
  const series = Array.from({ length: days }, (_, index) => {
    const date = new Date(since.getTime() + index * dayMs).toISOString().slice(0, 10);
    const entry = perDay.get(date);
    return {
      date,
      volumeUsd: new Money(entry?.amountUsd ?? 0).toFixed(2),
      invoices: entry?.invoices ?? 0,
    };
  });
  const countsOf = (kind: CountRow["kind"]) =>
    Object.fromEntries(counts.rows.filter((row) => row.kind === kind).map((row) => [row.status, row.count]));
  return {
    series,
    volumeUsd: series.reduce((sum, day) => sum.plus(day.volumeUsd), new Money(0)).toFixed(2),
    confirmedInvoices: series.reduce((sum, day) => sum + day.invoices, 0),
    sessions: countsOf("session") as Record<string, number>,
    invoices: countsOf("invoice") as Record<string, number>,
    /** Live subscriptions only: ACTIVE and PAST_DUE. */
    subscriptions: countsOf("subscription") as Record<string, number>,
    recent,
  };
}
