import { startDevnet } from "../lib/chains/devnet";
import { closeDb, db } from "../lib/db/client";
import { startPeriodicTask } from "../lib/jobs/periodic-task";
import { payInvoiceOnDevnet } from "../lib/payments/pay-invoice-on-devnet";
import { scanNetwork } from "../lib/payments/scan-network";
import { headPollIntervalMs } from "../lib/payments/watch-networks";
import { scanNetworksTask } from "../lib/tasks/background-tasks";
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

const invoiceCount = Number(process.env.BENCH_INVOICES ?? 120);
const openInvoices = 1000;
const cpuBlocks = Number(process.env.BENCH_BLOCKS ?? 50);

const database = await createBenchDatabase("cc_bench_payments", { migrate: true });
const databaseUrl = database.url;

const devnetPort = Number(process.env.BENCH_DEVNET_PORT ?? 8690 + Math.floor(Math.random() * 10));
const devnet = await startDevnet({ port: devnetPort, blockIntervalMs: 1000 });
const rpc = devnetRpc(devnet);
try {
  const network = await deployBenchNetwork(devnet, 2);
  const organization = await createBenchOrganization({ databaseUrl, network, poolSize: 10 });
  const newInvoice = (token: string) => startTestPayment(organization.id, token, "25.00");

  // 1. Confirmation latency, with the watcher as the app runs it.
  const invoices: Awaited<ReturnType<typeof newInvoice>>[] = [];
  for (let index = 0; index < invoiceCount; index++)
    invoices.push(await newInvoice(index % 2 ? "ETH" : "USDC"));
  const stopWatcher = startPeriodicTask(db(), scanNetworksTask);
  const confirmations = pollConfirmations();
  const { paidAt, latencies } = confirmations;
  const started = performance.now();
  for (const invoice of invoices) {
    await payInvoiceOnDevnet(db(), invoice.id, {});
    paidAt.set(invoice.id, performance.now());
    // Spread the payments over time, as buyers would, rather than all in one block.
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await confirmations.waitFor(invoices.length, started);
  await confirmations.stop();
  stopWatcher();
  const ms = [...latencies.values()];
  const byToken = (symbol: string) =>
    invoices
      .filter((invoice) => invoice.token === symbol)
      .map((invoice) => latencies.get(invoice.id) as number);
  const events = await db().event.count({ where: { type: "payment.confirmed" } });

  // 2. Watcher CPU per block with 1,000 open invoices.
  for (let index = 0; index < openInvoices; index++) await newInvoice(index % 2 ? "ETH" : "USDC");
  await rpc("evm_setIntervalMining", [0]);
  await rpc("evm_setAutomine", [false]);
  await scanNetwork(db(), network, devnet.client);
  const others = otherAddresses(11);
  const cpu: number[] = [];
  const wall: number[] = [];
  for (let block = 0; block < cpuBlocks; block++) {
    await mineBusyBlock(rpc, network, others);
    const before = process.cpuUsage();
    const t0 = performance.now();
    await scanNetwork(db(), network, devnet.client);
    wall.push(performance.now() - t0);
    const used = process.cpuUsage(before);
    cpu.push((used.user + used.system) / 1000);
  }
  const open = await db().invoice.count({ where: { status: "AWAITING_PAYMENT" } });

  console.log(
    `\npayments.ts: ${invoices.length} invoices paid (${byToken("USDC").length} USDC, ${byToken("ETH").length} ETH), confirmations ${network.confirmations}, devnet block every 1 s, watcher following new heads every ${headPollIntervalMs(network)} ms`,
  );
  console.log(`payment.confirmed events: ${events}`);
  console.log("receipt -> CONFIRMED latency, ms:");
  for (const [label, values] of [
    ["all", ms],
    ["USDC", byToken("USDC")],
    ["ETH", byToken("ETH")],
  ] as const)
    console.log(
      `  ${label.padEnd(5)} p50 ${percentile(values, 50).toFixed(0)}  p99 ${percentile(values, 99).toFixed(0)}  max ${Math.max(...values).toFixed(0)}`,
    );
  console.log(`watcher per block, ${open} open invoices, ${cpuBlocks} blocks of 11 transactions:`);
  console.log(
    `  CPU ms   p50 ${percentile(cpu, 50).toFixed(2)}  p99 ${percentile(cpu, 99).toFixed(2)}  mean ${(cpu.reduce((a, b) => a + b, 0) / cpu.length).toFixed(2)}`,
  );
  console.log(`  wall ms  p50 ${percentile(wall, 50).toFixed(2)}  p99 ${percentile(wall, 99).toFixed(2)}`);
} finally {
  await closeDb(db()).catch(() => {});
  await devnet.stop();
  await database.drop();
}
