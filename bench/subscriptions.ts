// `npx tsx bench/subscriptions.ts`: the subscription scheduler issuing renewals for
// BENCH_SUBSCRIPTIONS (default 10,000) subscriptions all due at once, on PostgreSQL
// (TEST_DATABASE_URL's server, default postgresql://postgres@127.0.0.1:5432/postgres; a fresh
// database for the run, dropped after). BENCH_WORKERS (default 2) schedulers run at once, as two
// app instances would, sharing the rows through FOR UPDATE SKIP LOCKED. Each renewal is the real
// thing: a checkout session, a fresh deposit address, a quote, the invoice and invoice.created
// with its webhook delivery (one endpoint). Prints the wall time and checks that every
// subscription got exactly one renewal invoice and one invoice.created.
import { devnetNetwork } from "../lib/chains/devnet";
import { closeDb, db } from "../lib/db/client";
import { processDueSubscriptions } from "../lib/subscriptions/process-due-subscriptions";
import { createBenchOrganization } from "./in-process";
import { createBenchDatabase } from "./support";

const count = Number(process.env.BENCH_SUBSCRIPTIONS ?? 10_000);
const workers = Number(process.env.BENCH_WORKERS ?? 2);
const database = await createBenchDatabase("cc_bench_subscriptions", { migrate: true });
try {
  // Issuing makes no RPC call: the network only has to be configured.
  const network = devnetNetwork({
    rpcUrl: "http://127.0.0.1:9",
    usdc: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
    confirmations: 1,
  });
  const organization = await createBenchOrganization({
    databaseUrl: database.url,
    network,
    poolSize: Math.max(10, workers * 2),
  });
  await db().webhookEndpoint.create({
    data: {
      id: "we_bench",
      organizationId: organization.id,
      name: "Bench",
      url: "https://shop.example/hooks",
      secretCiphertext: "unused",
    },
  });
  const now = new Date();
  const anchor = new Date(now.getTime() - 30 * 86_400_000);
  const end = new Date(now.getTime() + 12 * 3_600_000);
  await db().$executeRaw`
    INSERT INTO "Subscription" ("id", "organizationId", "status", "amount", "currency", "interval",
      "intervalCount", "network", "token", "anchor", "currentPeriodStart", "currentPeriodEnd",
      "nextActionAt", "updatedAt")
    SELECT 'sub_bench_' || g, ${organization.id}, 'ACTIVE', 9, 'USD', 'day', 30, 'devnet', 'USDC',
      ${anchor}, ${anchor}, ${end}, ${now}, ${now}
    FROM generate_series(1, ${count}) g`;

  const started = performance.now();
  const processed = await Promise.all(
    Array.from({ length: workers }, () => processDueSubscriptions(db(), now)),
  );
  const seconds = (performance.now() - started) / 1000;

  const [renewals, created, duplicates] = await Promise.all([
    db().invoice.count({ where: { organizationId: organization.id, periodIndex: 1 } }),
    db().event.count({ where: { organizationId: organization.id, type: "invoice.created" } }),
    db().$queryRaw<{ n: bigint }[]>`
      SELECT count(*) AS n FROM (SELECT 1 FROM "Invoice" WHERE "subscriptionId" IS NOT NULL
      GROUP BY "subscriptionId", "periodIndex" HAVING count(*) > 1) d`,
  ]);
  console.log(
    JSON.stringify({
      subscriptions: count,
      workers,
      processedPerWorker: processed,
      seconds: Number(seconds.toFixed(2)),
      renewalsPerSecond: Math.round(count / seconds),
      renewalInvoices: renewals,
      invoiceCreatedEvents: created,
      duplicatePeriods: Number(duplicates[0].n),
    }),
  );
  if (renewals !== count || created !== count || Number(duplicates[0].n) !== 0) process.exitCode = 1;
} finally {
  await closeDb(db()).catch(() => {});
  await database.drop();
}
