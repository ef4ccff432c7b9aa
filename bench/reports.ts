// `npx tsx bench/reports.ts`: the payments report exported as CSV, on PostgreSQL (TEST_DATABASE_URL's
// server, default postgresql://postgres@127.0.0.1:5432/postgres; a fresh database for the run,
// dropped after). BENCH_REPORT_ROWS (default 100,000) confirmed invoices are seeded, each paid by
// one transfer and every tenth partly refunded; then for each size of BENCH_REPORT_SIZES (default
// 10,000, 30,000 and 100,000) a fresh process asks GET /api/private/reports/payments?format=csv for the
// range holding that many rows, through the route handler as the server calls it (API key,
// authority, the stream), and reads the answer's stream as a client would, keeping none of it.
// Prints rows per second and the process's peak RSS and heap growth over its size before the
// request: flat in the row count means the rows are not held in memory. With BENCH_GC_PROBE=1 the
// export also collects garbage every 500 ms and prints the most heap that survived a collection
// (what the export holds, without the garbage V8 has not collected yet; it slows the export).
import { spawn } from "node:child_process";
import { NextRequest } from "next/server";
import { devnetNetwork } from "../lib/chains/devnet";
import { db, disconnectDb } from "../lib/db/client";
import { createOrganization } from "../lib/organizations/create-organization";
import { insertBulkInvoices } from "../scripts/test-support/bulk-invoices";
import { createBenchDatabase } from "./support";

const total = Number(process.env.BENCH_REPORT_ROWS ?? 100_000);
const sizes = (process.env.BENCH_REPORT_SIZES ?? "10000,30000,100000").split(",").map(Number);
const start = new Date("2026-01-01T00:00:00Z");
const payer = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

function configure(databaseUrl: string) {
  Object.assign(process.env, {
    DATABASE_URL: databaseUrl,
    SERVICE_NETWORKS: JSON.stringify([
      devnetNetwork({ rpcUrl: "http://127.0.0.1:1", usdc: `0x${"5".repeat(40)}`, confirmations: 1 }),
    ]),
    SERVICE_HD_MNEMONIC: "test test test test test test test test test test test junk",
    LOG_LEVEL: "warn",
  });
}

type Measured = { rows: number; bytes: number; ms: number; rssGrowth: number; heapGrowth: number };

/** One export of the first `size` rows, read chunk by chunk; memory sampled every 5 ms meanwhile. */
async function exportRows(apiKey: string, size: number): Promise<Measured> {
  const { GET } = await import("../app/api/private/reports/payments/route");
  const call = async (rows: number, onChunk: (chunk: Uint8Array) => void) => {
    const to = new Date(start.getTime() + (rows + 1) * 1000).toISOString();
    const url = `http://localhost/api/private/reports/payments?from=${start.toISOString()}&to=${to}&format=csv`;
    const request = new NextRequest(url, { headers: { authorization: `Bearer ${apiKey}` } });
    const response = await GET(request, { params: Promise.resolve({}) });
    if (response.status !== 200) throw new Error(`status ${response.status}: ${await response.text()}`);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      onChunk(value);
    }
  };
  // Warm up (modules, the pool, the credential cache), then measure from a collected heap.
  await call(1000, () => {});
  globalThis.gc?.();
  const before = process.memoryUsage();
  let peakRss = before.rss;
  let peakHeap = before.heapUsed;
  const sample = () => {
    const now = process.memoryUsage();
    peakRss = Math.max(peakRss, now.rss);
    peakHeap = Math.max(peakHeap, now.heapUsed);
  };
  const sampler = setInterval(sample, 5);
  let bytes = 0;
  let lineEnds = 0;
  let retained = 0;
  const collector = process.env.BENCH_GC_PROBE
    ? setInterval(() => {
        globalThis.gc?.();
        retained = Math.max(retained, process.memoryUsage().heapUsed - before.heapUsed);
      }, 500)
    : undefined;
  const started = performance.now();
  await call(size, (chunk) => {
    bytes += chunk.length;
    for (const byte of chunk) if (byte === 10) lineEnds++;
    sample();
  });
  const ms = performance.now() - started;
  clearInterval(sampler);
  clearInterval(collector);
  if (process.env.BENCH_GC_PROBE) console.error(`retained after gc: ${mb(retained)} MB`);
  return {
    rows: lineEnds - 1,
    bytes,
    ms,
    rssGrowth: peakRss - before.rss,
    heapGrowth: peakHeap - before.heapUsed,
  };
}

/** Runs one export in a fresh process, so each size starts from the same memory. */
function measureInChild(databaseUrl: string, apiKey: string, size: number): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [...process.execArgv, "--expose-gc", import.meta.filename, "--export", String(size)],
      {
        env: { ...process.env, BENCH_DATABASE: databaseUrl, BENCH_API_KEY: apiKey },
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.on("error", reject);
    child.on("exit", (code) => {
      if (code === 0) resolve(JSON.parse(output.trim().split("\n").at(-1) as string));
      else reject(new Error(`the export of ${size} rows exited with ${code}`));
    });
  });
}

if (process.argv[2] === "--export") {
  configure(process.env.BENCH_DATABASE as string);
  const measured = await exportRows(process.env.BENCH_API_KEY as string, Number(process.argv[3]));
  await disconnectDb();
  console.log(JSON.stringify(measured));
} else {
  const database = await createBenchDatabase("cc_bench_reports", { migrate: true });
  try {
    configure(database.url.toString());
    const { organization, apiKey } = await createOrganization(db(), {
      name: "Bench Store",
      ownerEmail: "bench@example.com",
    });
    const seedStarted = performance.now();
    await insertBulkInvoices({
      organizationId: organization.id,
      prefix: "bench",
      from: 1,
      to: total,
      amount: 25,
      status: "CONFIRMED",
      deadline: "1 hour",
      token: "USDC",
      confirmedFrom: start,
    });
    await db().$executeRaw`
      INSERT INTO "Payment" ("id", "organizationId", "invoiceId", "txHash", "logIndex", "amount", "blockNumber",
        "blockHash", "confirmations", "status", "fromAddress")
      SELECT 'pay_bench' || i, ${organization.id}, 'inv_bench' || i, '0x' || lpad(to_hex(i), 64, '0'), 0, 25, i,
        '0x' || lpad(to_hex(i), 64, 'b'), 1, 'CONFIRMED', ${payer}
      FROM generate_series(1, ${total}::int) AS i`;
    await db().$executeRaw`
      INSERT INTO "Refund" ("id", "organizationId", "invoiceId", "checkoutSessionId", "network", "token", "amount",
        "amountUsd", "status", "destination", "toAddress", "requestedByKind", "requestedByName", "updatedAt")
      SELECT 'rfd_bench' || i, ${organization.id}, 'inv_bench' || i, 'ycs_bench' || i, 'devnet', 'USDC', 5, 5,
        'SUCCEEDED', 'PAYER', ${payer}, 'api_key', 'bench', now()
      FROM generate_series(10, ${total}::int, 10) AS i`;
    await db().$executeRaw`ANALYZE`;
    console.log(
      `seeded ${total} confirmed invoices with payments (a tenth refunded) in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`,
    );
    await disconnectDb();
    console.log("rows     | seconds | rows/s  | MB     | peak RSS growth | peak heap growth");
    for (const size of sizes) {
      const result = await measureInChild(database.url.toString(), apiKey, size);
      if (result.rows !== size) throw new Error(`expected ${size} rows, the CSV had ${result.rows}`);
      console.log(
        [
          String(result.rows).padEnd(8),
          (result.ms / 1000).toFixed(2).padEnd(7),
          Math.round(result.rows / (result.ms / 1000))
            .toString()
            .padEnd(7),
          mb(result.bytes).padEnd(6),
          `${mb(result.rssGrowth)} MB`.padEnd(15),
          `${mb(result.heapGrowth)} MB`,
        ].join(" | "),
      );
    }
  } finally {
    await disconnectDb();
    await database.drop();
  }
}
