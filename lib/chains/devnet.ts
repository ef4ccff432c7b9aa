import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { type Address, createPublicClient, createWalletClient, http, type PublicClient } from "viem";
import { hardhat } from "viem/chains";
import { compileTestUsdc } from "./compile-test-usdc";
import { devnetFunder } from "./devnet-account";
import { hardhatChainId, type NetworkConfig } from "./networks";

const root = path.resolve(import.meta.dirname, "../..");

export type Devnet = { rpcUrl: string; client: PublicClient; stop: () => Promise<void> };

/** Starts a Hardhat 2 node on 127.0.0.1:`port` (blockIntervalMs 0: blocks only on transactions). */
export async function startDevnet(options: { port: number; blockIntervalMs?: number }): Promise<Devnet> {
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
      stdio: "ignore",
      env: {
        ...process.env,
        DEVNET_BLOCK_INTERVAL_MS: String(options.blockIntervalMs ?? 1000),
        HARDHAT_DISABLE_TELEMETRY_PROMPT: "true",
      },
    },
  );
  const rpcUrl = `http://127.0.0.1:${options.port}`;
  // cacheTime 0: viem otherwise answers getBlockNumber from a 4-second cache, and a watcher must
  // see the head as it is.
  const client = createPublicClient({ chain: hardhat, transport: http(rpcUrl), cacheTime: 0 });
  for (const deadline = Date.now() + 60_000; ; ) {
    try {
      await client.getBlockNumber();
      break;
    } catch {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error("the devnet did not start");
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
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

/** Deploys the test USDC from the funder account and returns its address. */
export async function deployTestUsdc(rpcUrl: string): Promise<Address> {
  const { abi, bytecode } = compileTestUsdc();
  const wallet = createWalletClient({ account: devnetFunder, chain: hardhat, transport: http(rpcUrl) });
  const client = createPublicClient({ chain: hardhat, transport: http(rpcUrl) });
  const hash = await wallet.deployContract({ abi, bytecode });
  const receipt = await client.waitForTransactionReceipt({ hash });
  if (!receipt.contractAddress) throw new Error("test USDC deployment failed");
  return receipt.contractAddress;
}

/** The network configuration of a local devnet: its test USDC and ETH, flagged as the devnet. */
export function devnetNetwork(options: {
  rpcUrl: string;
  usdc: Address;
  confirmations: number;
}): NetworkConfig {
  return {
    id: "devnet",
    name: "Local devnet",
    chainId: hardhatChainId,
    rpcUrl: options.rpcUrl,
    confirmations: options.confirmations,
    // The devnet mines a block a second (scripts/devnet-setup.ts, bench/payments.ts).
    blockTimeMs: 1000,
    tokens: [
      { symbol: "USDC", decimals: 6, address: options.usdc, peggedTo: "USD" },
      { symbol: "ETH", decimals: 18 },
    ],
    devnet: true,
  };
}
