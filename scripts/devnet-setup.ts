// The zero-setup chain: a Hardhat devnet (native ETH, a freshly deployed test USDC and mock price
// feeds for ETH/USD, EUR/USD and GBP/USD), the
// environment the app needs to take payments on it, and a deposit-address mnemonic kept in the
// data directory. The sweeper's gas wallet and the refund wallets of the organizations already
// there (the demo merchant) are funded at start; the signer funds any other organization's on its
// first refund (lib/refunds/fund-devnet-refund-wallet.ts).
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { generateMnemonic } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import { createWalletClient, http, parseAbi, parseEther, parseUnits } from "viem";
import { hardhat } from "viem/chains";
import {
  type Devnet,
  deployPriceFeeds,
  deployTestUsdc,
  devnetNetwork,
  startDevnet,
} from "../lib/chains/devnet";
import { devnetBuyer, devnetFunder } from "../lib/chains/devnet-account";
import { hardhatChainId, type NetworkConfig } from "../lib/chains/networks";
import type { Db } from "../lib/db/client";
import { fundDevnetRefundWallet } from "../lib/refunds/fund-devnet-refund-wallet";
import { forgetDevnetChain } from "../lib/sweeps/forget-devnet-chain";
import { restoreDevnetDeposits } from "../lib/sweeps/restore-devnet-deposits";
import { sweeperKeysFromMnemonic } from "../lib/sweeps/sweeper-keys";

export type DevnetSetup = {
  devnet: Devnet;
  network: NetworkConfig;
  env: Record<string, string>;
  /** Whether the database was on an earlier devnet (a restart), and the deposit addresses put back. */
  restarted: { restoredDeposits: number } | null;
};

/** The test USDC the devnet's test buyer (`devnetBuyer`) holds after every start. */
export const devnetBuyerUsdc = "10000";

async function localMnemonic(dataDir: string): Promise<string> {
  const file = path.join(dataDir, "devnet-mnemonic");
  const saved = await readFile(file, "utf8").catch(() => null);
  if (saved) return saved.trim();
  const mnemonic = generateMnemonic(wordlist);
  await mkdir(dataDir, { recursive: true });
  await writeFile(file, mnemonic, { mode: 0o600 });
  return mnemonic;
}

export async function setUpDevnet(options: {
  port: number;
  dataDir: string;
  database: Db;
  /** Blocks only on this interval, each with every transaction sent meanwhile (undefined: automine). */
  blockTimeMs?: number;
}): Promise<DevnetSetup> {
  const { blockTimeMs } = options;
  const devnet = await startDevnet(
    blockTimeMs === undefined
      ? { port: options.port }
      : { port: options.port, blockIntervalMs: blockTimeMs, automine: false },
  );
  const usdc = await deployTestUsdc(devnet.rpcUrl);
  const priceFeeds = await deployPriceFeeds(devnet.rpcUrl);
  const network = devnetNetwork({ rpcUrl: devnet.rpcUrl, usdc, confirmations: 2, priceFeeds, blockTimeMs });
  // The devnet starts from block 0 every time: forget how far the previous one was scanned, and
  // the nonces and sweeps of the previous chain; then put back what the ledger says its deposit
  // addresses still hold, so the ledger and the new chain agree.
  const scanned = await options.database.chainCursor.deleteMany({ where: { network: "devnet" } });
  await forgetDevnetChain(options.database);
  const restoredDeposits = await restoreDevnetDeposits(options.database, network, devnet.client);
  const mnemonic = process.env.SERVICE_HD_MNEMONIC || (await localMnemonic(options.dataDir));
  // The in-process sweeper's gas wallet, funded so token sweeps work from the first payment.
  const funder = createWalletClient({
    account: devnetFunder,
    chain: hardhat,
    transport: http(devnet.rpcUrl),
  });
  const keys = sweeperKeysFromMnemonic(mnemonic);
  await funder.sendTransaction({ to: keys.gasWallet(hardhatChainId).address, value: parseEther("100") });
  // The test buyer an agent pays with over x402 (the start prints its key): test USDC to sign
  // EIP-3009 transfers of; Hardhat gives it ETH already. Test USDC lets anyone mint.
  const minted = await funder.writeContract({
    address: usdc,
    abi: parseAbi(["function mint(address to, uint256 amount)"]),
    functionName: "mint",
    args: [devnetBuyer.address, parseUnits(devnetBuyerUsdc, 6)],
  });
  await devnet.client.waitForTransactionReceipt({ hash: minted });
  // The organizations' refund wallets, funded with coin for fees and test USDC, so the demo's
  // refunds go out at once; all at once (the node assigns the funder's nonces), so a database with
  // many merchants does not hold the start up a block per wallet.
  const organizations = await options.database.organization.findMany({ select: { refundWalletIndex: true } });
  await Promise.all(
    organizations.map((organization) =>
      fundDevnetRefundWallet(
        network,
        devnet.client,
        keys.refundWallet(organization.refundWalletIndex, hardhatChainId).address,
      ),
    ),
  );
  return {
    devnet,
    network,
    env: { SERVICE_NETWORKS: JSON.stringify([network]), SERVICE_HD_MNEMONIC: mnemonic },
    restarted: scanned.count > 0 || restoredDeposits > 0 ? { restoredDeposits } : null,
  };
}
