// Dashboard pages with 10,000 invoices: server time of the overview and the lists, against the
// app's lightest route in the same run. `npx tsx bench/dashboard.ts`
import { createHash, randomBytes } from "node:crypto";
import pg from "pg";
import { newId } from "../lib/ids";
import { createMerchant, startApp } from "./support";

const invoices = Number(process.env.BENCH_INVOICES ?? 10_000);
const samples = Number(process.env.BENCH_SAMPLES ?? 40);
const app = await startApp({ port: 3950 });
try {
  const { organizationId } = createMerchant(app);
  const client = new pg.Client(app.env.DATABASE_URL);
  await client.connect();

  // Sessions, invoices and their events spread over the last 30 days, in a few large statements.
  const statuses = ["CONFIRMED", "CONFIRMED", "CONFIRMED", "AWAITING_PAYMENT", "PARTIALLY_PAID", "OVERDUE"];
  const now = Date.now();
  for (let start = 0; start < invoices; start += 1000) {
    const rows = Array.from({ length: Math.min(1000, invoices - start) }, (_, offset) => {
      const index = start + offset;
      const createdAt = new Date(now - Math.random() * 30 * 86_400_000);
      return {
        session: newId("checkoutSession"),
        invoice: newId("invoice"),
        index,
        status: statuses[index % statuses.length],
        createdAt,
        amount: (10 + (index % 90)).toFixed(2),
      };
    });
    await client.query(
      `INSERT INTO "CheckoutSession" ("id","organizationId","status","amount","currency","merchantOrderId","expiresAt","createdAt","updatedAt")
       SELECT s, $1, 'COMPLETED', a::numeric, 'USD', 'order-' || i, c, c, c
       FROM unnest($2::text[], $3::text[], $4::int[], $5::timestamptz[]) AS t(s, a, i, c)`,
      [
        organizationId,
        rows.map((r) => r.session),
        rows.map((r) => r.amount),
        rows.map((r) => r.index),
        rows.map((r) => r.createdAt),
      ],
    );
    await client.query(
      `INSERT INTO "Invoice" ("id","organizationId","checkoutSessionId","network","token","depositAddress","derivationIndex",
         "amountDue","amountPaid","pricingAmount","pricingCurrency","rate","amountUsd","quotedAt","quoteSource",
         "status","deadline","createdAt","updatedAt")
       SELECT v, $1, s, 'devnet', 'USDC', '0x' || lpad(to_hex(i), 40, '0'), i, a::numeric,
         CASE WHEN st = 'CONFIRMED' THEN a::numeric ELSE 0 END, a::numeric, 'USD', 1, a::numeric, c, 'USD 1:1',
         st::"InvoiceStatus",
         c + interval '1 hour', c, c
       FROM unnest($2::text[], $3::text[], $4::text[], $5::int[], $6::text[], $7::timestamptz[]) AS t(v, s, a, i, st, c)`,
      [
        organizationId,
        rows.map((r) => r.invoice),
        rows.map((r) => r.session),
        rows.map((r) => r.amount),
        rows.map((r) => r.index),
        rows.map((r) => r.status),
        rows.map((r) => r.createdAt),
      ],
    );
    await client.query(
      `INSERT INTO "Event" ("id","organizationId","type","invoiceId","payload","createdAt")
       SELECT 'evt_' || md5(v || t), $1, t, v, '{}'::jsonb, c + interval '5 minutes'
       FROM unnest($2::text[], $3::text[], $4::timestamptz[]) AS x(v, st, c)
       CROSS JOIN LATERAL (SELECT 'invoice.created' AS t UNION ALL SELECT 'payment.confirmed' WHERE st = 'CONFIRMED') e`,
      [organizationId, rows.map((r) => r.invoice), rows.map((r) => r.status), rows.map((r) => r.createdAt)],
    );
  }
  await client.query("ANALYZE");

  // A signed-in browser: a session row for the owner, as next-auth writes it.
  const token = randomBytes(32).toString("hex");
  await client.query(
    `INSERT INTO "AuthSession" ("id","tokenHash","userId","expires")
     SELECT $1, $2, "userId", now() + interval '1 day' FROM "Membership" WHERE "organizationId" = $3`,
    [newId("authSession"), createHash("sha256").update(token).digest("hex"), organizationId],
  );
  await client.end();
  const cookie = `next-auth.session-token=${token}`;

  async function time(path: string, headers: Record<string, string> = {}) {
    const warm = await fetch(`${app.baseUrl}${path}`, { headers, redirect: "manual" });
    if (warm.status !== 200) throw new Error(`${path} answered ${warm.status}`);
    await warm.text();
    const durations: number[] = [];
    for (let i = 0; i < samples; i++) {
      const started = performance.now();
      const response = await fetch(`${app.baseUrl}${path}`, { headers });
      await response.text();
      durations.push(performance.now() - started);
    }
    durations.sort((a, b) => a - b);
    return { path, p50: durations[Math.floor(samples / 2)], p99: durations[Math.ceil(samples * 0.99) - 1] };
  }

  const baseline = await time("/api/health/live");
  const pages = [];
  for (const path of [
    "/dashboard",
    "/dashboard/invoices",
    "/dashboard/sessions",
    "/dashboard/invoices?status=CONFIRMED&page=50",
  ])
    pages.push(await time(path, { cookie }));
  console.log(`\n${invoices} invoices, ${samples} sequential requests each (full response, loopback)`);
  console.log("page                                        p50 ms   p99 ms   p50 x baseline");
  for (const row of [baseline, ...pages]) {
    console.log(
      `${row.path.padEnd(42)} ${row.p50.toFixed(1).padStart(8)} ${row.p99.toFixed(1).padStart(8)} ${(row.p50 / baseline.p50).toFixed(1).padStart(16)}`,
    );
  }
} finally {
  await app.stop();
}
