import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import {
  type Address,
  createPublicClient,
  createWalletClient,
  type Hex,
  http,
  type PublicClient,
  parseUnits,
} from "viem";
import { hardhat } from "viem/chains";
import { compileMockAggregator, compileMulticall3, compileTestUsdc } from "./compile-test-usdc";
import { devnetFunder } from "./devnet-account";
import { type EvmNetworkConfig, hardhatChainId, type PriceFeedConfig } from "./networks";

const root = path.resolve(import.meta.dirname, "../..");

export type Devnet = { rpcUrl: string; client: PublicClient; stop: () => Promise<void> };

/**
 * Starts a Hardhat 2 node on 127.0.0.1:`port` that mines a block on every transaction and each
 * `blockIntervalMs` (0: only on transactions), or, with `automine` false, only each
 * `blockIntervalMs`, with all the transactions sent meanwhile. Port 0 lets the system pick a free
 * one: the node reports it when it listens.
 */
export async function startDevnet(options: {
  port: number;
  blockIntervalMs?: number;
  automine?: boolean;
}): Promise<Devnet> {
  const blockIntervalMs = options.blockIntervalMs ?? 1000;
  const automine = options.automine ?? true;
  if (!automine && blockIntervalMs <= 0) throw new Error("a devnet without automine needs a block interval");
  const child: ChildProcess = spawn(
    process.execPath,
    [
      path.join(root, "node_modules/hardhat/internal/cli/cli.js"),
      "--config",
      path.join(root, "lib/chains/hardhat.config.cjs"),
      "node",
      "--hostname",
      "127.0.0.1",
      "--port",
      String(options.port),
    ],
    {
      cwd: root,
      stdio: ["ignore", options.port === 0 ? "pipe" : "ignore", "ignore"],
      env: {
        ...process.env,
        DEVNET_BLOCK_INTERVAL_MS: String(blockIntervalMs),
        DEVNET_AUTOMINE: String(automine),
        HARDHAT_DISABLE_TELEMETRY_PROMPT: "true",
      },
    },
  );
  const port = options.port === 0 ? await listeningPort(child) : options.port;
  const rpcUrl = `http://127.0.0.1:${port}`;
  // cacheTime 0: viem otherwise answers getBlockNumber from a 4-second cache, and a watcher must
  // see the head as it is. Without automine a receipt is looked for a few times a block, not
  // every 4 seconds (viem's default).
  const client = createPublicClient({
    chain: hardhat,
    transport: http(rpcUrl),
    cacheTime: 0,
    ...(automine ? {} : { pollingInterval: Math.max(50, blockIntervalMs / 4) }),
  });
  for (const deadline = Date.now() + 60_000; ; ) {
    try {
      await client.getBlockNumber();
      break;
    } catch {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error("the devnet did not start");
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  await installMulticall3(client);
  return {
    rpcUrl,
    client,
    stop: async () => {
      // Stopping twice (a test that stops it, then its cleanup) must not wait for a second exit.
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/** Where Multicall3 lives on main networks (the same address on each). */
export const multicall3Address = "0xcA11bde05977b3631167028862bE2a173976CA11";

/**
 * Puts Multicall3's code at its usual address, as main networks have it, without a transaction (no
 * nonce of the funder's is used, so the devnet's contract addresses stay as they were). The
 * runtime code is what a call of the creation code returns.
 */
async function installMulticall3(client: PublicClient) {
  const { data } = await client.call({ data: compileMulticall3().bytecode });
  await client.request({ method: "hardhat_setCode" as never, params: [multicall3Address, data] as never });
}

/** The port of "Started HTTP and WebSocket JSON-RPC server at http://127.0.0.1:<port>/" on the node's output. */
async function listeningPort(child: ChildProcess): Promise<number> {
  const output = child.stdout as NonNullable<ChildProcess["stdout"]>;
  let seen = "";
  const port = await new Promise<number>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /JSON-RPC server at http:\/\/[^/]*:(\d+)\//.exec(seen);
      if (match) resolve(Number(match[1]));
    };
    output.on("data", read);
    child.once("exit", () => reject(new Error("the devnet did not start")));
  });
  // The node logs every call it answers: read on, and drop it, so it never waits on a full pipe.
  output.removeAllListeners("data");
  output.resume();
  return port;
}

async function deploy(rpcUrl: string, contract: ReturnType<typeof compileTestUsdc>, args: unknown[] = []) {
  const wallet = createWalletClient({ account: devnetFunder, chain: hardhat, transport: http(rpcUrl) });
  const hash = await wallet.deployContract({ abi: contract.abi, bytecode: contract.bytecode, args });
  const receipt = await awaitDevnetReceipt(rpcUrl, hash);
  if (!receipt.contractAddress) throw new Error("devnet contract deployment failed");
  return receipt.contractAddress;
}

/** The test USDC's EIP-712 domain (lib/chains/contracts/TestUSDC.sol), which EIP-3009 signatures name. */
export const testUsdcEip3009 = { name: "Test USD Coin", version: "2" };

/** Deploys the test USDC from the funder account and returns its address. */
export async function deployTestUsdc(rpcUrl: string): Promise<Address> {
  return deploy(rpcUrl, compileTestUsdc());
}

/** The devnet's prices (USD per unit), answered with 8 decimals like Chainlink's USD feeds. */
export const devnetPrices = { "ETH/USD": "3000", "EUR/USD": "1.08", "GBP/USD": "1.27" } as const;
export const devnetFeedDecimals = 8;

/**
 * Deploys a mock aggregator per devnet price. Until a test pins a time, each reports the chain's
 * clock as its update time, so the zero-setup start keeps quoting however long it runs.
 */
export async function deployPriceFeeds(rpcUrl: string): Promise<PriceFeedConfig[]> {
  const contract = compileMockAggregator();
  const feeds: PriceFeedConfig[] = [];
  // One after the other: the funder signs locally, and parallel deployments would share a nonce.
  for (const [pair, usd] of Object.entries(devnetPrices)) {
    const answer = parseUnits(usd, devnetFeedDecimals);
    const address = await deploy(rpcUrl, contract, [devnetFeedDecimals, pair, answer]);
    feeds.push({ pair, address, maxAgeSeconds: 3600 });
  }
  return feeds;
}

/**
 * Sets a devnet feed's answer to `usd` per unit. `updatedAt` (unix seconds) pins the update time
 * (tests of stale prices); 0 lets it follow the chain's clock again.
 */
export async function setDevnetPrice(rpcUrl: string, feed: string, usd: string, updatedAt = 0n) {
  const wallet = createWalletClient({ account: devnetFunder, chain: hardhat, transport: http(rpcUrl) });
  const hash = await wallet.writeContract({
    address: feed as Address,
    abi: compileMockAggregator().abi,
    functionName: "setRoundData",
    args: [parseUnits(usd, devnetFeedDecimals), updatedAt],
  });
  await awaitDevnetReceipt(rpcUrl, hash);
}

/** A devnet transaction's receipt, looked for each 100 ms (viem's default is 4 s: a devnet without automine mines on its interval). */
function awaitDevnetReceipt(rpcUrl: string, hash: Hex) {
  return createPublicClient({
    chain: hardhat,
    transport: http(rpcUrl),
    pollingInterval: 100,
  }).waitForTransactionReceipt({
    hash,
  });
}

/** The network configuration of a local devnet: its test USDC, ETH and price feeds, flagged as the devnet. */
export function devnetNetwork(options: {
  rpcUrl: string;
  usdc: Address;
  confirmations: number;
  priceFeeds?: PriceFeedConfig[];
  blockTimeMs?: number;
}): EvmNetworkConfig {
  return {
    id: "devnet",
    name: "Local devnet",
    chainId: hardhatChainId,
    rpcUrl: options.rpcUrl,
    confirmations: options.confirmations,
    // The devnet mines a block a second, or each configured block time (scripts/devnet-setup.ts).
    blockTimeMs: options.blockTimeMs ?? 1000,
    tokens: [
      { symbol: "USDC", decimals: 6, address: options.usdc, peggedTo: "USD", eip3009: testUsdcEip3009 },
      { symbol: "ETH", decimals: 18 },
    ],
    priceFeeds: options.priceFeeds ?? [],
    devnet: true,
  };
}
