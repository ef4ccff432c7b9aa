// `npx tsx bench/x402.ts`: agents paying one paylink over x402 and over MPP against `npm start` on
// PostgreSQL with its devnet. Each agent has a key of its own holding test USDC and pays with its
// protocol's official client: x402's (@x402/fetch, @x402/evm) or MPP's (mppx with its EVM charge
// method). For each protocol and each concurrency in BENCH_AGENTS (default "4,32"), in one run,
// that many agents pay BENCH_PAYMENTS_PER_AGENT (default 10) times each, one payment after
// another; printed: request-to-200 latency p50/p99 (the 402, the signature and the paid request
// that settles on chain) and settlements per second, and the ratio of each concurrency's rate to
// the first's. The baseline, at the same concurrency: the 402 alone (a quote, nothing settled).
// Each payment is checked to have answered 200 with a settled PAYMENT-RESPONSE (x402) or a
// Payment-Receipt (MPP); any other answer is printed and fails the run. A second table gives
// the CPU milliseconds each payment cost each process on this machine (the app's server, its EVM
// devnet and local Solana chain, PostgreSQL's backends, the agents): their sum against the cores
// tells whether a rate is bound by CPU. BENCH_PORT (default 9380; its devnet takes the next
// port, the local Solana chain the one after).
//
// The devnet mines a block each BENCH_BLOCK_TIME_MS (default 500), with every transaction sent
// meanwhile, as a real chain does (Arbitrum's blocks come each 250 ms, Base's each 2 s): a
// payment then waits for its block, as it would there, and more agents share the blocks. With
// BENCH_BLOCK_TIME_MS=0 the devnet mines each transaction as it arrives: no payment waits for the
// chain, every rate is the machine's CPU, and the ratio of two rates is that of their CPU per
// payment (docs/architecture.md, "Settlement under load").
import { decodePaymentResponseHeader } from "@x402/core/http";
import { Receipt } from "mppx";
import { createPublicClient, createWalletClient, type Hex, http, parseAbi, parseUnits } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { devnetFunder } from "../lib/chains/devnet-account";
import { mppBuyer } from "../scripts/test-support/mpp-buyer";
import { probeX402, x402Buyer } from "../scripts/test-support/x402-buyer";
import { createMerchant, databaseCpuMs, serverCpuMs, startApp } from "./support";

const concurrencies = (process.env.BENCH_AGENTS ?? "4,32").split(",").map(Number);
const perAgent = Number(process.env.BENCH_PAYMENTS_PER_AGENT ?? 10);
const port = Number(process.env.BENCH_PORT ?? 9380);
const blockTimeMs = Number(process.env.BENCH_BLOCK_TIME_MS ?? 500);

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;

/**
 * CPU milliseconds used so far by each process a payment runs through, all on this machine: the
 * app's server, its EVM devnet, its local Solana chain (idle here, but polled), PostgreSQL's
 * backends for the app's database, and the agents (this process).
 */
function cpuNow(database: string) {
  const agents = process.cpuUsage();
  return {
    server: serverCpuMs(port),
    devnet: serverCpuMs(port + 1),
    solana: serverCpuMs(port + 2),
    postgres: databaseCpuMs(database),
    agents: (agents.user + agents.system) / 1000,
  };
}
type Cpu = ReturnType<typeof cpuNow>;

/**
 * Runs `total` calls of `one` over `workers` loops; each call's milliseconds, the wall time, and
 * each process's CPU milliseconds per call (the machine is CPU-bound when their sum times the
 * rate nears its cores).
 */
async function timed(total: number, workers: number, one: (worker: number) => Promise<void>) {
  const latencies: number[] = [];
  let next = 0;
  const cpuBefore = cpuNow(database);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      while (next < total) {
        next += 1;
        const start = performance.now();
        await one(worker);
        latencies.push(performance.now() - start);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    perSecond: total / seconds,
    cpuMs: Object.fromEntries(
      Object.entries(cpuNow(database)).map(([name, ms]) => [
        name,
        (ms - cpuBefore[name as keyof Cpu]) / total,
      ]),
    ) as Cpu,
  };
}

/** Whether a paid answer is a settled 200 in its protocol's terms. */
const protocols = {
  x402: {
    buyer: (key: Hex, usdc: Hex) => x402Buyer(key, usdc).pay,
    settled: (paid: Response) =>
      decodePaymentResponseHeader(paid.headers.get("PAYMENT-RESPONSE") ?? "").success,
  },
  mpp: {
    buyer: (key: Hex) => mppBuyer(privateKeyToAccount(key)).pay,
    settled: (paid: Response) => Receipt.fromResponse(paid).status === "success",
  },
} as const;

const app = await startApp({
  port,
  env: {
    SERVICE_DEVNET: "true",
    SERVICE_DEVNET_PORT: String(port + 1),
    SERVICE_SOLANA_DEVNET_PORT: String(port + 2),
    // The signing role in the web process: the built-in facilitator settles (docs/agents.md).
    SERVICE_SWEEPER: "in-process",
    ...(blockTimeMs > 0 ? { SERVICE_DEVNET_BLOCK_TIME_MS: String(blockTimeMs) } : {}),
    SERVICE_RATE_LIMIT_X402_PER_CLIENT_PER_MINUTE: "1000000",
    SERVICE_RATE_LIMIT_PUBLIC_PER_MINUTE: "1000000",
  },
});
const database = new URL(app.env.DATABASE_URL as string).pathname.slice(1);
let failed = 0;
try {
  const { apiKey } = createMerchant(app);
  const created = await (
    await fetch(`${app.baseUrl}/api/private/paylinks/create`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "Bench API call", amount: "0.01", currency: "USD" }),
    })
  ).json();
  const url = created.data?.x402Url as string;
  if (!url) throw new Error(`could not create a paylink: ${JSON.stringify(created)}`);
  const { response, paymentRequired } = await probeX402(url);
  const usdc = paymentRequired?.accepts[0]?.asset as Hex | undefined;
  if (response.status !== 402 || !usdc) throw new Error(`no x402 quote: ${response.status}`);

  // A fresh key for every agent of every round, with test USDC (anyone may mint it); Hardhat's
  // node assigns the funder's nonces, so the mints can go out at once. Each is mined before its
  // agent pays: a transfer ahead of it in its block would fail.
  const devnet = http(`http://127.0.0.1:${port + 1}`);
  const funder = createWalletClient({ account: devnetFunder.address, transport: devnet });
  const chain = createPublicClient({ transport: devnet, pollingInterval: 100 });
  const fundedKey = async () => {
    const key = generatePrivateKey();
    const minted = await funder.writeContract({
      address: usdc,
      abi: parseAbi(["function mint(address to, uint256 amount)"]),
      functionName: "mint",
      args: [privateKeyToAccount(key).address, parseUnits("100", 6)],
      chain: null,
    });
    await chain.waitForTransactionReceipt({ hash: minted });
    return key;
  };

  await timed(8, 4, async () => void (await probeX402(url)));
  const rows: [string, Awaited<ReturnType<typeof timed>>][] = [];
  const ratios: string[] = [];
  for (const [name, protocol] of Object.entries(protocols)) {
    let first: number | undefined;
    for (const agents of concurrencies) {
      const payments = agents * perAgent;
      const pays = await Promise.all(
        Array.from({ length: agents }, async () => protocol.buyer(await fundedKey(), usdc)),
      );
      const quotes = await timed(payments, agents, async () => {
        const probe = await probeX402(url);
        if (probe.response.status !== 402) throw new Error(`probe answered ${probe.response.status}`);
      });
      const settled = await timed(payments, agents, async (worker) => {
        const paid = await (pays[worker] as (typeof pays)[number])(url);
        if (paid.status !== 200 || !protocol.settled(paid)) {
          failed += 1;
          console.log(`${name} payment answered ${paid.status}: ${await paid.text()}`);
        }
      });
      rows.push([`${name}, ${agents} agents: 402 quote alone`, quotes]);
      rows.push([`${name}, ${agents} agents: paid request to 200`, settled]);
      first ??= settled.perSecond;
      ratios.push(`${name} ${agents} agents: ${(settled.perSecond / first).toFixed(2)}x`);
    }
  }

  console.log(
    `\non the devnet (${blockTimeMs > 0 ? `a block each ${blockTimeMs} ms` : "a block per transaction"}), ${perAgent} payments per agent`,
  );
  console.log(`${" ".repeat(44)}   p50 ms   p99 ms   per second   server CPU ms each`);
  for (const [name, row] of rows)
    console.log(
      `${name.padEnd(44)} ${row.p50.toFixed(1).padStart(8)} ${row.p99.toFixed(1).padStart(8)} ${row.perSecond.toFixed(2).padStart(12)} ${row.cpuMs.server.toFixed(1).padStart(19)}`,
    );
  const processes = Object.keys(rows[0]?.[1].cpuMs ?? {});
  console.log(
    `\nCPU ms each, by process${" ".repeat(21)}${processes.map((name) => name.padStart(9)).join("")}    total`,
  );
  for (const [name, { cpuMs }] of rows) {
    const values = Object.values(cpuMs);
    const total = values.reduce((sum, ms) => sum + ms, 0);
    console.log(
      `${name.padEnd(44)}${values.map((ms) => ms.toFixed(1).padStart(9)).join("")}${total.toFixed(1).padStart(9)}`,
    );
  }
  console.log(`settlements per second against the first concurrency: ${ratios.join(", ")}`);
  console.log(`failed payments: ${failed} (price 0.01 USD each)`);
} finally {
  await app.stop();
}
process.exit(failed > 0 ? 1 : 0);
