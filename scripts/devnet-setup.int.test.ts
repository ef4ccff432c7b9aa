import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createWalletClient, erc20Abi, type Hex, http, parseEther, parseUnits } from "viem";
import { hardhat } from "viem/chains";
import { afterAll, describe, expect, it } from "vitest";
import { devnetBuyer, devnetFunder } from "@/lib/chains/devnet-account";
import { hardhatChainId } from "@/lib/chains/networks";
import { db } from "@/lib/db/client";
import { devnetRefundWalletFunds } from "@/lib/refunds/fund-devnet-refund-wallet";
import { sweeperKeysFromMnemonic } from "@/lib/sweeps/sweeper-keys";
import { createTestOrganization } from "@/scripts/test-support/fixtures";
import { type DevnetSetup, devnetBuyerUsdc, setUpDevnet } from "./devnet-setup";

let setup: DevnetSetup | undefined;
let interval: DevnetSetup | undefined;
afterAll(async () => Promise.all([setup?.devnet.stop(), interval?.devnet.stop()]));

describe("the zero-setup devnet", () => {
  it("starts with the sweeper's gas wallet, the demo merchant's refund wallet and the test buyer funded, so sweeps, refunds and x402 payments work at once", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "devnet-setup-"));
    // The zero-setup start creates the demo merchant before the devnet (scripts/start.ts).
    const { organization: demo } = await createTestOrganization();
    const { organization: earlier } = await createTestOrganization();
    setup = await setUpDevnet({ port: 9050 + Math.floor(Math.random() * 50), dataDir, database: db() });
    const { organization: later } = await createTestOrganization();
    const keys = sweeperKeysFromMnemonic(setup.env.SERVICE_HD_MNEMONIC);
    const walletOf = (index: number) => keys.refundWallet(index, hardhatChainId).address;
    const { client } = setup.devnet;
    const usdcOf = (address: Hex) =>
      client.readContract({
        address: setup?.network.tokens[0].address as Hex,
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [address],
      });
    const demoWallet = walletOf(demo.refundWalletIndex);
    expect(await usdcOf(demoWallet)).toBe(parseUnits(devnetRefundWalletFunds.token, 6));
    expect(await client.getBalance({ address: demoWallet })).toBe(parseEther(devnetRefundWalletFunds.coin));
    expect(await usdcOf(walletOf(earlier.refundWalletIndex))).toBe(
      parseUnits(devnetRefundWalletFunds.token, 6),
    );
    // One signed up afterwards is funded by the signer on its first refund (lib/refunds/refunds.int.test.ts).
    expect(await client.getBalance({ address: walletOf(later.refundWalletIndex) })).toBe(0n);
    expect(await client.getBalance({ address: keys.gasWallet(hardhatChainId).address })).toBe(
      parseEther("100"),
    );
    // The key `npm start` prints for agents paying with x402.
    expect(await usdcOf(devnetBuyer.address)).toBe(parseUnits(devnetBuyerUsdc, 6));
    expect(await client.getBalance({ address: devnetBuyer.address })).toBeGreaterThan(parseEther("1"));
  }, 120_000);

  it("with a block time (SERVICE_DEVNET_BLOCK_TIME_MS), mines only on its interval, with every transaction sent meanwhile, as a real chain does", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "devnet-setup-"));
    interval = await setUpDevnet({
      port: 9100 + Math.floor(Math.random() * 50),
      dataDir,
      database: db(),
      blockTimeMs: 400,
    });
    // Receipts and stuck transactions are looked for by the network's block time.
    expect(interval.network.blockTimeMs).toBe(400);
    const { client, rpcUrl } = interval.devnet;
    const funder = createWalletClient({
      account: devnetFunder.address,
      chain: hardhat,
      transport: http(rpcUrl),
    });
    const sent = await Promise.all(
      [1, 2, 3].map(() => funder.sendTransaction({ to: devnetBuyer.address, value: parseEther("1") })),
    );
    // Not mined as they arrive (automine would have): they wait for the block.
    const before = await Promise.all(
      sent.map((hash) => client.getTransactionReceipt({ hash }).catch(() => null)),
    );
    expect(before).toEqual([null, null, null]);
    const receipts = await Promise.all(sent.map((hash) => client.waitForTransactionReceipt({ hash })));
    expect(receipts.map((receipt) => receipt.status)).toEqual(["success", "success", "success"]);
    expect(new Set(receipts.map((receipt) => receipt.blockNumber)).size).toBe(1);
  }, 120_000);
});
