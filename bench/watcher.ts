import { createPublicClient, http } from "viem";
import { startDevnet } from "../lib/chains/devnet";
import { closeDb, db } from "../lib/db/client";
import { startPeriodicTask } from "../lib/jobs/periodic-task";
import { payInvoiceOnDevnet } from "../lib/payments/pay-invoice-on-devnet";
import { scanNetwork } from "../lib/payments/scan-network";
import { scanNetworksTask } from "../lib/tasks/background-tasks";
import { insertBulkInvoices } from "../scripts/test-support/bulk-invoices";
import { startTestPayment } from "../scripts/test-support/fixtures";
import {
  createBenchOrganization,
  deployBenchNetwork,
  devnetRpc,
  mineBusyBlock,
  otherAddresses,
  percentile,
  pollConfirmations,
} from "./in-process";
import { createBenchDatabase } from "./support";

const sizes = (process.env.BENCH_SIZES ?? "1000,10000,100000").split(",").map(Number);
const blocksPerSize = Number(process.env.BENCH_BLOCKS ?? 20);
const paymentsPerSize = Number(process.env.BENCH_PAYMENTS ?? 20);

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);

const database = await createBenchDatabase("cc_bench_watcher", { migrate: true });
const devnetPort = Number(process.env.BENCH_DEVNET_PORT ?? 8690 + Math.floor(Math.random() * 10));
const devnet = await startDevnet({ port: devnetPort, blockIntervalMs: 1000 });
const rpc = devnetRpc(devnet);
try {
  const network = await deployBenchNetwork(devnet, 2);
  const organization = await createBenchOrganization({ databaseUrl: database.url, network, poolSize: 10 });
  // The scans' RPC calls, counted per method as the client sends them.
  const calls = new Map<string, number>();
  const counting = createPublicClient({
    transport: http(devnet.rpcUrl, {
      onFetchRequest: async (request) => {
        for (const call of [await request.clone().json()].flat())
          calls.set(call.method, (calls.get(call.method) ?? 0) + 1);
      },
    }),
    cacheTime: 0,
  });
  const others = otherAddresses(11);
  const results: string[] = [];
  let seeded = 0;
  for (const size of sizes) {
    // Bulk: sessions and invoices in two statements, deadlines 23 hours ahead, addresses no one pays.
    const seedStarted = performance.now();
    await insertBulkInvoices({
      organizationId: organization.id,
      prefix: "bench",
      from: seeded + 1,
      to: size,
      amount: 25,
      status: "AWAITING_PAYMENT",
      deadline: "23 hours",
    });
    const seedMs = performance.now() - seedStarted;
    seeded = size;
    const open = await db().invoice.count({ where: { status: "AWAITING_PAYMENT" } });

    // 1. Per block, mining by hand.
    await rpc("evm_setIntervalMining", [0]);
    await rpc("evm_setAutomine", [false]);
    const firstStarted = performance.now();
    await scanNetwork(db(), network, counting);
    const firstScanMs = performance.now() - firstStarted;
    const cpu: number[] = [];
    const wall: number[] = [];
    const rpcCalls: number[] = [];
    const getLogs: number[] = [];
    for (let block = 0; block < blocksPerSize; block++) {
      await mineBusyBlock(rpc, network, others);
      calls.clear();
      const before = process.cpuUsage();
      const t0 = performance.now();
      await scanNetwork(db(), network, counting);
      wall.push(performance.now() - t0);
      const used = process.cpuUsage(before);
      cpu.push((used.user + used.system) / 1000);
      rpcCalls.push([...calls.values()].reduce((a, b) => a + b, 0));
      getLogs.push(calls.get("eth_getLogs") ?? 0);
    }

    // 2. Receipt -> CONFIRMED with the watcher running as in the app, a block a second.
    await rpc("evm_setAutomine", [true]);
    await rpc("evm_setIntervalMining", [1000]);
    const invoices = [];
    for (let index = 0; index < paymentsPerSize; index++) {
      invoices.push(await startTestPayment(organization.id, index % 2 ? "ETH" : "USDC", "25.00"));
    }
    const stopWatcher = startPeriodicTask(db(), scanNetworksTask);
    const confirmations = pollConfirmations();
    const { paidAt, latencies, confirmedAt } = confirmations;
    // When each block was first seen, so the wait for the confirming block can be told apart.
    const blockSeenAt = new Map<bigint, number>();
    const deciding = new Map<string, bigint>();
    let polling = true;
    const blockPoller = (async () => {
      while (polling) {
        const head = await devnet.client.getBlockNumber({ cacheTime: 0 });
        if (!blockSeenAt.has(head)) blockSeenAt.set(head, performance.now());
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    const started = performance.now();
    for (const invoice of invoices) {
      const { txHash } = await payInvoiceOnDevnet(db(), invoice.id, {});
      paidAt.set(invoice.id, performance.now());
      const receipt = await devnet.client.getTransactionReceipt({ hash: txHash as `0x${string}` });
      deciding.set(invoice.id, receipt.blockNumber + BigInt(network.confirmations) - 1n);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await confirmations.waitFor(invoices.length, started);
    polling = false;
    await Promise.all([confirmations.stop(), blockPoller]);
    // From the first sight of the block that gave the payment its confirmations (or a later one,
    // when two came within a poll) to CONFIRMED: the watcher's part of the latency.
    const afterBlock = [...deciding].map(([id, number]) => {
      const seen = Math.min(...[...blockSeenAt].filter(([block]) => block >= number).map(([, at]) => at));
      return (confirmedAt.get(id) as number) - seen;
    });
    await stopWatcher();
    const memory = process.memoryUsage();
    const ms = [...latencies.values()];
    const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

    const line = [
      `${String(open).padStart(7)} open`,
      `seed ${(seedMs / 1000).toFixed(1)} s`,
      `first scan ${firstScanMs.toFixed(0)} ms`,
      `CPU ms/block p50 ${percentile(cpu, 50).toFixed(2)} p99 ${percentile(cpu, 99).toFixed(2)} mean ${mean(cpu).toFixed(2)}`,
      `wall ms/block p50 ${percentile(wall, 50).toFixed(1)} p99 ${percentile(wall, 99).toFixed(1)}`,
      `RPC calls/block p50 ${percentile(rpcCalls, 50)} max ${Math.max(...rpcCalls)} (getLogs p50 ${percentile(getLogs, 50)})`,
      `receipt->CONFIRMED p50 ${percentile(ms, 50).toFixed(0)} p99 ${percentile(ms, 99).toFixed(0)} ms`,
      `confirming block->CONFIRMED p50 ${percentile(afterBlock, 50).toFixed(0)} p99 ${percentile(afterBlock, 99).toFixed(0)} ms`,
      `RSS ${mb(memory.rss)} MB heap ${mb(memory.heapUsed)} MB`,
    ].join(" | ");
    console.log(line);
    results.push(line);
  }
  console.log(
    `\nwatcher.ts: ${blocksPerSize} blocks of 11 transactions and ${paymentsPerSize} payments per size, confirmations ${network.confirmations}`,
  );
  for (const line of results) console.log(line);
} finally {
  await closeDb(db()).catch(() => {});
  await devnet.stop();
  await database.drop();
}
