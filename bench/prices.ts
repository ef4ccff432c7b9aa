// `npx tsx bench/prices.ts`: what a quote's price lookup costs, against a real Hardhat devnet with
// the mock aggregators (BENCH_DEVNET_PORT, default a random 914x). Prints per-lookup latency of
//  1. a feed read from the chain (the 5-second cache missed: `decimals` is kept, so one
//     latestRoundData eth_call), BENCH_READS times (default 200), and
//  2. a lookup answered from the cache, BENCH_CACHED times (default 5,000).
// A quote for a native coin in EUR makes two lookups (ETH/USD and EUR/USD).
import { deployPriceFeeds, deployTestUsdc, devnetNetwork, startDevnet } from "../lib/chains/devnet";
import { findUsdPrice } from "../lib/prices/find-usd-price";

const reads = Number(process.env.BENCH_READS ?? 200);
const cachedLookups = Number(process.env.BENCH_CACHED ?? 5000);
const port = Number(process.env.BENCH_DEVNET_PORT ?? 9140 + Math.floor(Math.random() * 10));

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

const devnet = await startDevnet({ port, blockIntervalMs: 0 });
try {
  const network = devnetNetwork({
    rpcUrl: devnet.rpcUrl,
    usdc: await deployTestUsdc(devnet.rpcUrl),
    priceFeeds: await deployPriceFeeds(devnet.rpcUrl),
    confirmations: 1,
  });
  // The app reads its configuration once, on first use.
  process.env.SERVICE_NETWORKS = JSON.stringify([network]);
  process.env.SERVICE_HD_MNEMONIC = "test test test test test test test test test test test junk";
  const start = Date.now();
  // Warm up: the first read also fetches the feed's decimals.
  await findUsdPrice("ETH", network, new Date(start));

  const uncached: number[] = [];
  for (let index = 1; index <= reads; index++) {
    // Each lookup 6 s (of the quote's clock) after the last: past the cache.
    const now = new Date(start + index * 6_000);
    const begin = performance.now();
    await findUsdPrice("ETH", network, now);
    uncached.push(performance.now() - begin);
  }
  const cached: number[] = [];
  const now = new Date(start + (reads + 1) * 6_000);
  await findUsdPrice("ETH", network, now);
  for (let index = 0; index < cachedLookups; index++) {
    const begin = performance.now();
    await findUsdPrice("ETH", network, now);
    cached.push(performance.now() - begin);
  }
  const row = (label: string, values: number[]) =>
    `${label.padEnd(28)} n=${String(values.length).padStart(5)}  p50 ${percentile(values, 50).toFixed(3)} ms  p99 ${percentile(values, 99).toFixed(3)} ms`;
  console.log(
    `\nprices.ts: ETH/USD lookups against the devnet's mock aggregator (Hardhat on 127.0.0.1:${port})`,
  );
  console.log(row("read from the chain", uncached));
  console.log(row("answered from the cache", cached));
} finally {
  await devnet.stop();
}
