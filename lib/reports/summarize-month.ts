import { type Db, sqlPool } from "../db/client";
import { formatDecimal, Money } from "../money/decimal";
import { monthRange } from "./month-range";

type Row = { kind: "received" | "refunded"; day: string; token: string; amount: string; usd: string };

// One aggregate for the month, grouped by day and token, so the card costs the same with ten
// payments or a hundred thousand. Received is as the payments report counts it (confirmed invoices
// by confirmation time: what arrived, and the price in USD at the locked quote); refunded is the
// refunds that succeeded in the month, whenever their payment was (money leaves when the refund
// is confirmed on chain), in the token and in USD at the invoice's locked rate.
const summaryQuery = `
  SELECT 'received' AS "kind", to_char(i."confirmedAt" AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS "day", i."token",
         SUM(i."amountPaid")::text AS "amount", SUM(i."amountUsd")::text AS "usd"
    FROM "Invoice" i
   WHERE i."organizationId" = $1 AND i."status" = 'CONFIRMED' AND i."confirmedAt" >= $2 AND i."confirmedAt" < $3
   GROUP BY 2, 3
  UNION ALL
  SELECT 'refunded', to_char(r."confirmedAt" AT TIME ZONE 'UTC', 'YYYY-MM-DD'), r."token",
         SUM(r."amount")::text, SUM(r."amountUsd")::text
    FROM "Refund" r
   WHERE r."organizationId" = $1 AND r."status" = 'SUCCEEDED' AND r."confirmedAt" >= $2 AND r."confirmedAt" < $3
   GROUP BY 2, 3`;

const dayMs = 24 * 60 * 60 * 1000;
/** To the cent, as shown: the net is the difference of the amounts shown, so the card adds up. */
const cents = (value: Money) => value.toDecimalPlaces(2);

/**
 * The month's books for the dashboard's summary: received, refunded and net per token (exact
 * decimal strings) and in USD at the locked quotes (to the cent), and per UTC day in USD for the
 * chart. `month` is "YYYY-MM", a UTC calendar month (./month-range.ts).
 */
export async function summarizeMonth(database: Db, organizationId: string, month: string) {
  const { from, to } = monthRange(month);
  const { rows } = await sqlPool(database).query<Row>(summaryQuery, [organizationId, from, to]);

  const zero = () => ({ received: new Money(0), refunded: new Money(0) });
  const byToken = new Map<string, ReturnType<typeof zero>>();
  const byDay = new Map<string, ReturnType<typeof zero>>();
  const total = zero();
  for (const row of rows) {
    const token = byToken.get(row.token) ?? zero();
    token[row.kind] = token[row.kind].plus(row.amount);
    byToken.set(row.token, token);
    const day = byDay.get(row.day) ?? zero();
    day[row.kind] = day[row.kind].plus(row.usd);
    byDay.set(row.day, day);
    total[row.kind] = total[row.kind].plus(row.usd);
  }

  const [received, refunded] = [cents(total.received), cents(total.refunded)];
  const days = Math.round((to.getTime() - from.getTime()) / dayMs);
  return {
    month,
    from,
    to,
    tokens: [...byToken]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([token, sums]) => ({
        token,
        received: formatDecimal(sums.received),
        refunded: formatDecimal(sums.refunded),
        net: formatDecimal(sums.received.minus(sums.refunded)),
      })),
    usd: {
      received: received.toFixed(2),
      refunded: refunded.toFixed(2),
      net: received.minus(refunded).toFixed(2),
    },
    days: Array.from({ length: days }, (_, index) => {
      const date = new Date(from.getTime() + index * dayMs).toISOString().slice(0, 10);
      const sums = byDay.get(date) ?? zero();
      return {
        date,
        receivedUsd: cents(sums.received).toFixed(2),
        refundedUsd: cents(sums.refunded).toFixed(2),
      };
    }),
  };
}

export type MonthSummary = Awaited<ReturnType<typeof summarizeMonth>>;
