// The Solana watcher against 1,000, 10,000 and 100,000 open Solana invoices on the local Solana
// chain: RPC calls, CPU and wall time per poll (one unrelated payment into the receiving wallet's
// token account each slot, so every poll reads a transaction), then payment -> CONFIRMED with the
// watcher running as in the app. `npx tsx bench/solana-watcher.ts` (BENCH_SIZES, BENCH_POLLS,
// BENCH_PAYMENTS).
import { createDefaultRpcTransport, createSolanaRpcFromTransport } from "@solana/kit";
import { localSolanaBuyer } from "../lib/chains/solana/local-solana-accounts";
import { localSolanaNetwork } from "../lib/chains/solana/local-solana-network";
import type { SolanaRpc } from "../lib/chains/solana/read-solana-transfers";
import { sendSolanaPayTransfer } from "../lib/chains/solana/send-solana-pay-transfer";
import { solanaServiceKey } from "../lib/chains/solana/solana-keys";
import { startLocalSolana } from "../lib/chains/solana/start-local-solana";
import { createCheckoutSession } from "../lib/checkout/create-checkout-session";
import { startPayment } from "../lib/checkout/start-payment";
import { config } from "../lib/config";
import { closeDb, db } from "../lib/db/client";
import { startPeriodicTask } from "../lib/jobs/periodic-task";
import { scanNetwork } from "../lib/payments/scan-network";
import { scanNetworksTask } from "../lib/tasks/background-tasks";
import { insertBulkInvoices } from "../scripts/test-support/bulk-invoices";
import { createBenchOrganization, percentile, pollConfirmations } from "./in-process";
import { createBenchDatabase } from "./support";

const sizes = (process.env.BENCH_SIZES ?? "1000,10000,100000").split(",").map(Number);
const pollsPerSize = Number(process.env.BENCH_POLLS ?? 20);
const paymentsPerSize = Number(process.env.BENCH_PAYMENTS ?? 20);
const mnemonic = "test test test test test test test test test test test junk";
const receiver = solanaServiceKey(mnemonic, "receiving").address;

const database = await createBenchDatabase("cc_bench_solana_watcher", { migrate: true });
const local = await startLocalSolana({ port: 0, receivers: [receiver] });
try {
  const organization = await createBenchOrganization({
    databaseUrl: database.url,
    network: localSolanaNetwork({ rpcUrl: local.url }),
    mnemonic,
    poolSize: 10,
  });
  const network = config().networks[0];
  // The scans' RPC calls, counted per method as the client sends them.
  const calls = new Map<string, number>();
  const transport = createDefaultRpcTransport({ url: local.url });
  const counting = createSolanaRpcFromTransport(((request: { payload: unknown }) => {
    for (const call of [request.payload].flat() as { method: string }[])
      calls.set(call.method, (calls.get(call.method) ?? 0) + 1);
    return transport(request as never);
  }) as typeof transport) as unknown as SolanaRpc;
  const payer = createSolanaRpcFromTransport(transport) as unknown as SolanaRpc;
  const results: string[] = [];
  let seeded = 0;
  for (const size of sizes) {
    const seedStarted = performance.now();
    await insertBulkInvoices({
      organizationId: organization.id,
      prefix: "bench",
      from: seeded + 1,
      to: size,
      amount: 25,
      status: "AWAITING_PAYMENT",
      deadline: "23 hours",
      token: "USDC",
      solana: { network: network.id, receiver },
    });
    const seedMs = performance.now() - seedStarted;
    seeded = size;
    const open = await db().invoice.count({ where: { status: "AWAITING_PAYMENT", network: network.id } });

    // 1. Per poll: one unrelated payment into the receiving wallet (no watched reference), then a scan.
    const firstStarted = performance.now();
    await scanNetwork(db(), network, counting);
    const firstScanMs = performance.now() - firstStarted;
    const cpu: number[] = [];
    const wall: number[] = [];
    const rpcCalls: number[] = [];
    for (let poll = 0; poll < pollsPerSize; poll++) {
      await sendSolanaPayTransfer(payer, {
        payer: localSolanaBuyer,
        recipient: receiver,
        mint: local.usdcMint,
        decimals: 6,
        units: 1n,
        references: [],
      });
      calls.clear();
      const before = process.cpuUsage();
      const t0 = performance.now();
      await scanNetwork(db(), network, counting);
      wall.push(performance.now() - t0);
      const used = process.cpuUsage(before);
      cpu.push((used.user + used.system) / 1000);
      rpcCalls.push([...calls.values()].reduce((a, b) => a + b, 0));
    }

    // 2. Payment -> CONFIRMED with the watcher running as in the app (a slot every 400 ms).
    const invoices = [];
    for (let index = 0; index < paymentsPerSize; index++) {
      const created = await createCheckoutSession(db(), {
        organizationId: organization.id,
        request: { mode: "standalone", amount: "25.00", currency: "USD", expiresInMinutes: 60 },
        idempotency: null,
      });
      invoices.push(
        await startPayment(db(), {
          checkoutSessionId: (created.body as { id: string }).id,
          network: network.id,
          token: "USDC",
        }),
      );
    }
    const stopWatcher = startPeriodicTask(db(), scanNetworksTask);
    const confirmations = pollConfirmations();
    const started = performance.now();
    for (const invoice of invoices) {
      // From the moment the wallet sends: the chain's confirmation (about a slot) and the watcher's.
      confirmations.paidAt.set(invoice.id, performance.now());
      await sendSolanaPayTransfer(payer, {
        payer: localSolanaBuyer,
        recipient: receiver,
        mint: local.usdcMint,
        decimals: 6,
        units: 25_000_000n,
        references: [invoice.reference as string],
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await confirmations.waitFor(invoices.length, started);
    await confirmations.stop();
    await stopWatcher();
    const ms = [...confirmations.latencies.values()];
    const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
    const line = [
      `${String(open).padStart(7)} open`,
      `seed ${(seedMs / 1000).toFixed(1)} s`,
      `first scan ${firstScanMs.toFixed(0)} ms`,
      `CPU ms/poll p50 ${percentile(cpu, 50).toFixed(2)} p99 ${percentile(cpu, 99).toFixed(2)} mean ${mean(cpu).toFixed(2)}`,
      `wall ms/poll p50 ${percentile(wall, 50).toFixed(1)} p99 ${percentile(wall, 99).toFixed(1)}`,
      `RPC calls/poll p50 ${percentile(rpcCalls, 50)} max ${Math.max(...rpcCalls)}`,
      `send->CONFIRMED p50 ${percentile(ms, 50).toFixed(0)} p99 ${percentile(ms, 99).toFixed(0)} ms`,
    ].join(" | ");
    console.log(line);
    results.push(line);
  }
  console.log(
    `\nsolana-watcher.ts: ${pollsPerSize} polls (one unrelated payment each) and ${paymentsPerSize} payments per size, commitment ${network.commitment}`,
  );
  for (const line of results) console.log(line);
} finally {
  await closeDb(db()).catch(() => {});
  await local.stop();
  await database.drop();
}
