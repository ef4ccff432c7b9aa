import {
  createWalletClient,
  erc20Abi,
  type Hex,
  http,
  parseEther,
  parseUnits,
  type WalletClient,
} from "viem";
import { hardhat } from "viem/chains";
import { afterAll, beforeAll } from "vitest";
import { compileTestUsdc } from "@/lib/chains/compile-test-usdc";
import {
  type Devnet,
  deployPriceFeeds,
  deployTestUsdc,
  devnetNetwork,
  startDevnet,
} from "@/lib/chains/devnet";
import { devnetFunder } from "@/lib/chains/devnet-account";
import type { EvmNetworkConfig } from "@/lib/chains/networks";

// The devnet of an integration test file: one Hardhat node, on a port the system picks so files
// running in parallel (and other checkouts' runs) never meet, with the helpers the files share.

/** Hardhat's own mnemonic: deposit addresses derived from it, unless a test needs empty ones. */
export const hardhatMnemonic = "test test test test test test test test test test test junk";

export type TestDevnet = Devnet & {
  /** The devnet as the app configures it: test USDC, ETH and (unless refused) the price feeds. */
  network: EvmNetworkConfig;
  usdc: Hex;
  /** Hardhat's first account, funded with ETH, which may mint test USDC. */
  wallet: WalletClient<ReturnType<typeof http>, typeof hardhat, typeof devnetFunder>;
  rpc: (method: string, params?: unknown[]) => Promise<unknown>;
  mine: (blocks?: number) => Promise<unknown>;
  /** The transactions the node holds unmined (with automine off). */
  pendingTransactions: () => Promise<{ hash: Hex; from: string; to: string | null }[]>;
  /** Mints `amount` test USDC to `to` (a payment, as far as the watcher can tell); waits for its receipt. */
  mintUsdc: (to: string, amount: string) => Promise<Hex>;
  /** Sends `amount` ETH from the funded account; waits for its receipt. */
  sendEth: (to: string, amount: string) => Promise<Hex>;
  usdcBalance: (address: string) => Promise<bigint>;
};

/**
 * Starts a devnet that mines only on transactions (and when told to), deploys the test USDC and
 * the price feeds on it, and points the app's SERVICE_NETWORKS and SERVICE_HD_MNEMONIC at it. Stop
 * it in the file's afterAll.
 */
export async function startTestDevnet(options: {
  confirmations: number;
  priceFeeds?: boolean;
  mnemonic?: string;
}): Promise<TestDevnet> {
  const devnet = await startDevnet({ port: 0, blockIntervalMs: 0 });
  const usdc = await deployTestUsdc(devnet.rpcUrl);
  const network = devnetNetwork({
    rpcUrl: devnet.rpcUrl,
    usdc,
    confirmations: options.confirmations,
    priceFeeds: options.priceFeeds === false ? [] : await deployPriceFeeds(devnet.rpcUrl),
  });
  process.env.SERVICE_NETWORKS = JSON.stringify([network]);
  process.env.SERVICE_HD_MNEMONIC = options.mnemonic ?? hardhatMnemonic;

  const wallet = createWalletClient({
    account: devnetFunder,
    chain: hardhat,
    transport: http(devnet.rpcUrl),
  });
  const rpc = (method: string, params: unknown[] = []) =>
    devnet.client.request({ method: method as never, params: params as never });
  const confirmed = async (hash: Hex) => {
    await devnet.client.waitForTransactionReceipt({ hash });
    return hash;
  };
  const { abi } = compileTestUsdc();
  return {
    ...devnet,
    network,
    usdc,
    wallet,
    rpc,
    mine: (blocks = 1) => rpc("hardhat_mine", [`0x${blocks.toString(16)}`]),
    pendingTransactions: async () =>
      (
        (await rpc("eth_getBlockByNumber", ["pending", true])) as {
          transactions: { hash: Hex; from: string; to: string | null }[];
        }
      ).transactions,
    mintUsdc: async (to, amount) =>
      confirmed(
        await wallet.writeContract({
          address: usdc,
          abi,
          functionName: "mint",
          args: [to as Hex, parseUnits(amount, 6)],
        }),
      ),
    sendEth: async (to, amount) =>
      confirmed(await wallet.sendTransaction({ to: to as Hex, value: parseEther(amount) })),
    usdcBalance: (address) =>
      devnet.client.readContract({
        address: usdc,
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [address as Hex],
      }),
  };
}

/**
 * The file's devnet (startTestDevnet), started before its tests and stopped after them. Call it at
 * the top of the file: hooks run in the order they are registered and after-hooks in reverse, so
 * the file's own setup sees the devnet running and its own cleanup runs before the devnet stops.
 * The returned object is filled in when the devnet has started.
 */
export function testDevnetForFile(options: Parameters<typeof startTestDevnet>[0]): TestDevnet {
  const devnet = {} as TestDevnet;
  beforeAll(async () => {
    Object.assign(devnet, await startTestDevnet(options));
  }, 120_000);
  afterAll(async () => devnet.stop?.());
  return devnet;
}
