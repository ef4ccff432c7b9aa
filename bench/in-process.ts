// Shared by the benchmarks that run the app's code in their own process against a devnet and a
// fresh database (bench/support.ts's createBenchDatabase): its configuration, its merchant, and
// the devnet's load.
import { randomBytes } from "node:crypto";
import { privateKeyToAddress } from "viem/accounts";
import { type Devnet, deployPriceFeeds, deployTestUsdc, devnetNetwork } from "../lib/chains/devnet";
import { devnetFunder } from "../lib/chains/devnet-account";
import type { NetworkConfig } from "../lib/chains/networks";
import { db } from "../lib/db/client";
import { createOrganization } from "../lib/organizations/create-organization";

/** The nearest-rank `p`th percentile of `values`. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** A raw JSON-RPC call to `devnet`, for Hardhat's own methods (mining, sending from the funder). */
export const devnetRpc =
  (devnet: Devnet) =>
  (method: string, params: unknown[] = []) =>
    devnet.client.request({ method: method as never, params: params as never });

/** `devnet` as a configured network, with TestUSDC and the price feeds deployed on it. */
export async function deployBenchNetwork(devnet: Devnet, confirmations: number) {
  return devnetNetwork({
    rpcUrl: devnet.rpcUrl,
    usdc: await deployTestUsdc(devnet.rpcUrl),
    priceFeeds: await deployPriceFeeds(devnet.rpcUrl),
    confirmations,
  });
}

/**
 * Points the app's code at `databaseUrl` and `network`, then creates the bench merchant. The app
 * reads its configuration from the environment once, on first use: this comes before that.
 */
export async function createBenchOrganization(options: {
  databaseUrl: URL;
  network: NetworkConfig;
  mnemonic?: string;
  poolSize?: number;
}) {
  Object.assign(process.env, {
    DATABASE_URL: options.databaseUrl.toString(),
    ...(options.poolSize === undefined ? {} : { DATABASE_POOL_SIZE: String(options.poolSize) }),
    SERVICE_NETWORKS: JSON.stringify([options.network]),
    SERVICE_HD_MNEMONIC: options.mnemonic ?? "test test test test test test test test test test test junk",
    LOG_LEVEL: "warn",
  });
  const { organization } = await createOrganization(db(), {
    name: "Bench Store",
    ownerEmail: "bench@example.com",
  });
  return organization;
}

/** Addresses no invoice pays to, for the devnet's unrelated traffic. */
export const otherAddresses = (count: number) =>
  Array.from({ length: count }, () => privateKeyToAddress(`0x${randomBytes(32).toString("hex")}`));

/**
 * Mines one block of unrelated traffic on a devnet that is not automining: 10 native transfers to
 * `others[0..9]` and a mint of 1 test USDC to `others[10]`.
 */
export async function mineBusyBlock(
  rpc: ReturnType<typeof devnetRpc>,
  network: NetworkConfig,
  others: string[],
) {
  for (const to of others.slice(0, 10))
    await rpc("eth_sendTransaction", [{ from: devnetFunder.address, to, value: "0x2386f26fc10000" }]);
  await rpc("eth_sendTransaction", [
    {
      from: devnetFunder.address,
      to: network.tokens[0].address,
      // mint(others[10], 1 USDC)
      data: `0x40c10f19${others[10].slice(2).toLowerCase().padStart(64, "0")}${(1_000_000).toString(16).padStart(64, "0")}`,
    },
  ]);
  await rpc("evm_mine");
}

/**
 * Polls the database every 20 ms, until `stop()`, for the invoices set in `paidAt` (id -> when it
 * was paid) turning CONFIRMED: `latencies` gets each one's time from payment to the poll that saw
 * it CONFIRMED, `confirmedAt` that poll's time. `waitFor(count, started)` returns once `count` are
 * confirmed, and throws past 10 minutes from `started`.
 */
export function pollConfirmations() {
  const paidAt = new Map<string, number>();
  const latencies = new Map<string, number>();
  const confirmedAt = new Map<string, number>();
  let polling = true;
  const poller = (async () => {
    while (polling) {
      const waiting = [...paidAt.keys()].filter((id) => !latencies.has(id));
      if (waiting.length) {
        const confirmed = await db().invoice.findMany({
          where: { id: { in: waiting }, status: "CONFIRMED" },
          select: { id: true },
        });
        const now = performance.now();
        for (const { id } of confirmed) {
          latencies.set(id, now - (paidAt.get(id) as number));
          confirmedAt.set(id, now);
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  return {
    paidAt,
    latencies,
    confirmedAt,
    async waitFor(count: number, started: number) {
      while (latencies.size < count) {
        if (performance.now() - started > 10 * 60_000)
          throw new Error("invoices did not confirm in 10 minutes");
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async stop() {
      polling = false;
      await poller;
    },
  };
}
