// `npx tsx bench/x402.ts`: agents paying a paylink over x402 against `npm start` on PostgreSQL
// with its devnet, each with x402's official client (@x402/fetch, @x402/evm) and a key of its own
// holding test USDC. BENCH_AGENTS (default 4) agents pay BENCH_PAYMENTS (default 40) times in all,
// one payment after another each; printed: request-to-200 latency p50/p99 (the 402, the signature
// and the paid request that settles on chain) and settlements per second. The baseline, in the
// same run at the same concurrency: the 402 alone (a quote, nothing settled). Each payment is
// checked to have answered 200 with a settled PAYMENT-RESPONSE. BENCH_PORT (default 9380; its
// devnet takes the next port).
import { decodePaymentResponseHeader } from "@x402/core/http";
import { createWalletClient, type Hex, http, parseAbi, parseUnits } from "viem";
import { generatePrivateKey } from "viem/accounts";
import { devnetFunder } from "../lib/chains/devnet-account";
import { probeX402, x402Buyer } from "../scripts/test-support/x402-buyer";
import { createMerchant, startApp } from "./support";

const agents = Number(process.env.BENCH_AGENTS ?? 4);
const payments = Number(process.env.BENCH_PAYMENTS ?? 40);
const port = Number(process.env.BENCH_PORT ?? 9380);

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;

/** Runs `total` calls of `one` over `workers` loops; each call's milliseconds and the wall time. */
async function timed(total: number, workers: number, one: (worker: number) => Promise<void>) {
  const latencies: number[] = [];
  let next = 0;
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
  return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), perSecond: total / seconds };
}

const app = await startApp({
  port,
  env: {
    SERVICE_DEVNET: "true",
    SERVICE_DEVNET_PORT: String(port + 1),
    SERVICE_SOLANA_DEVNET_PORT: String(port + 2),
    // The signing role in the web process: the built-in facilitator settles (docs/agents.md).
    SERVICE_SWEEPER: "in-process",
    SERVICE_RATE_LIMIT_X402_PER_CLIENT_PER_MINUTE: "1000000",
    SERVICE_RATE_LIMIT_PUBLIC_PER_MINUTE: "1000000",
  },
});
let failed = false;
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

  // Each agent a fresh key with test USDC (anyone may mint it); Hardhat's node assigns the
  // funder's nonces, so the mints can go out at once.
  const funder = createWalletClient({
    account: devnetFunder.address,
    transport: http(`http://127.0.0.1:${port + 1}`),
  });
  const buyers = await Promise.all(
    Array.from({ length: agents }, async () => {
      const key = generatePrivateKey();
      const buyer = x402Buyer(key, usdc);
      await funder.writeContract({
        address: usdc,
        abi: parseAbi(["function mint(address to, uint256 amount)"]),
        functionName: "mint",
        args: [buyer.address, parseUnits("100", 6)],
        chain: null,
      });
      return buyer;
    }),
  );

  await timed(agents * 2, agents, async () => void (await probeX402(url)));
  const quotes = await timed(payments, agents, async () => {
    const probe = await probeX402(url);
    if (probe.response.status !== 402) throw new Error(`probe answered ${probe.response.status}`);
  });
  const settled = await timed(payments, agents, async (worker) => {
    const paid = await (buyers[worker] as (typeof buyers)[number]).pay(url);
    const settlement = decodePaymentResponseHeader(paid.headers.get("PAYMENT-RESPONSE") ?? "");
    if (paid.status !== 200 || !settlement.success) {
      failed = true;
      console.log(`payment answered ${paid.status}: ${await paid.text()}`);
    }
  });

  console.log(
    `\nx402 on the devnet, ${agents} agents, ${payments} of each     p50 ms   p99 ms    per second`,
  );
  for (const [name, row] of [
    ["402 quote alone (baseline)", quotes],
    ["paid request to 200 (settled)", settled],
  ] as const)
    console.log(
      `${name.padEnd(44)} ${row.p50.toFixed(1).padStart(8)} ${row.p99.toFixed(1).padStart(8)} ${row.perSecond.toFixed(2).padStart(13)}`,
    );
  console.log(`settlements per second: ${settled.perSecond.toFixed(2)} (price 0.01 USD each)`);
} finally {
  await app.stop();
}
process.exit(failed ? 1 : 0);
