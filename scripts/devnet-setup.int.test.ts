import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { erc20Abi, type Hex, parseEther, parseUnits } from "viem";
import { afterAll, describe, expect, it } from "vitest";
import { hardhatChainId } from "@/lib/chains/networks";
import { db } from "@/lib/db/client";
import { sweeperKeysFromMnemonic } from "@/lib/sweeps/sweeper-keys";
import { type DevnetSetup, devnetRefundWalletUsdc, setUpDevnet } from "./devnet-setup";

let setup: DevnetSetup | undefined;
afterAll(async () => setup?.devnet.stop());

describe("the zero-setup devnet", () => {
  it("starts with the sweeper's gas wallet and refund wallet funded, so sweeps and refunds work at once", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "devnet-setup-"));
    setup = await setUpDevnet({ port: 9050 + Math.floor(Math.random() * 50), dataDir, database: db() });
    const keys = sweeperKeysFromMnemonic(setup.env.SERVICE_HD_MNEMONIC);
    const refundWallet = keys.refundWallet(hardhatChainId).address;
    const { client } = setup.devnet;
    expect(
      await client.readContract({
        address: setup.network.tokens[0].address as Hex,
        abi: erc20Abi,
        functionName: "balanceOf",
        args: [refundWallet],
      }),
    ).toBe(parseUnits(devnetRefundWalletUsdc, 6));
    expect(await client.getBalance({ address: refundWallet })).toBe(parseEther("100"));
    expect(await client.getBalance({ address: keys.gasWallet(hardhatChainId).address })).toBe(
      parseEther("100"),
    );
  }, 120_000);
});
