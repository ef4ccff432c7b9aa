import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { erc20Abi, parseUnits } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EvmNetworkConfig } from "@/lib/chains/networks";
import { createCheckoutSession } from "@/lib/checkout/create-checkout-session";
import { startPayment } from "@/lib/checkout/start-payment";
import { db } from "@/lib/db/client";
import { scanNetwork } from "@/lib/payments/scan-network";
import { sweeperKeysFromMnemonic } from "@/lib/sweeps/sweeper-keys";
import { createTestOrganization, setTestSettlementWallets } from "@/scripts/test-support/fixtures";
import { startTestDevnet, type TestDevnet } from "@/scripts/test-support/test-devnet";

// `npm run sweeper` as a real process, killed with SIGKILL while a sweep's transfer is in flight,
// then started again: the sweep completes and the money moves once.
const root = path.resolve(import.meta.dirname, "..");
const mnemonic =
  "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";
let devnet: TestDevnet;
let network: EvmNetworkConfig;
const children: ChildProcess[] = [];

beforeAll(async () => {
  devnet = await startTestDevnet({ confirmations: 2, mnemonic });
  network = devnet.network;
}, 120_000);
/** SIGKILL the sweeper's whole process group: whatever it started dies with it. */
function kill(child: ChildProcess) {
  try {
    process.kill(-(child.pid as number), "SIGKILL");
  } catch {
    // Already gone.
  }
}

afterAll(async () => {
  for (const child of children) kill(child);
  await devnet?.stop();
});

function startSweeper() {
  // tsx's loader in the sweeper's own process, as `npm start` loads it: tsx's command line would
  // start a second Node process to run it, a second startup of CPU for nothing.
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/sweeper.ts"], {
    cwd: root,
    stdio: "ignore",
    detached: true,
    env: { ...process.env, SERVICE_SWEEPER: "separate", LOG_LEVEL: "silent" },
  });
  children.push(child);
  return child;
}

async function waitFor<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  onPoll?: () => Promise<unknown>,
) {
  for (const deadline = Date.now() + 180_000; Date.now() < deadline; ) {
    const value = await read();
    if (done(value)) return value;
    await onPoll?.();
    await sleep(250);
  }
  throw new Error("timed out waiting");
}

describe("npm run sweeper", () => {
  it("completes a sweep after a SIGKILL mid-transfer without a second transfer", async () => {
    const { organization } = await createTestOrganization();
    const settlement = "0x00000000000000000000000000000000005e771e";
    await setTestSettlementWallets(organization.id, [{ network: "devnet", address: settlement }]);
    const created = await createCheckoutSession(db(), {
      organizationId: organization.id,
      request: { mode: "standalone", amount: "40.00", currency: "USD", expiresInMinutes: 60 },
      idempotency: null,
    });
    const invoice = await startPayment(db(), {
      checkoutSessionId: (created.body as { id: string }).id,
      network: "devnet",
      token: "USDC",
    });
    await devnet.mintUsdc(invoice.depositAddress, "40");
    await devnet.sendEth(sweeperKeysFromMnemonic(mnemonic).gasWallet(network.chainId).address, "1");
    await devnet.mine(2);
    await scanNetwork(db(), network, devnet.client);

    // Blocks only when the test mines them, so the transfer waits in the mempool when killed.
    await devnet.rpc("evm_setAutomine", [false]);
    const sweep = () =>
      db().sweep.findFirst({ where: { invoiceId: invoice.id }, include: { transactions: true } });
    const first = startSweeper();
    await waitFor(sweep, (found) => found?.status === "FUNDING");
    // FUNDING is recorded before the gas top-up is broadcast, so one block mined at once may come
    // too early for it (seen on a loaded machine): mine on every poll until the transfer is signed.
    await waitFor(
      sweep,
      (found) => found?.status === "SUBMITTED",
      async () => (await sweep())?.status === "FUNDING" && devnet.rpc("evm_mine"),
    );
    kill(first);
    await new Promise((resolve) => first.once("exit", resolve));
    // The killed sweeper's lease would lapse within its 60 s (lib/tasks/sweep-networks-task.ts)
    // while this test mined a block every poll: lapse it now, as the clock would.
    await db().jobLease.update({
      where: { name: "sweep-networks" },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });

    startSweeper();
    const done = await waitFor(
      sweep,
      (found) => found?.status === "CONFIRMED",
      () => devnet.rpc("evm_mine"),
    );
    expect(done?.transactions.filter((transaction) => transaction.kind === "TRANSFER")).toHaveLength(1);
    const transfers = await devnet.client.getContractEvents({
      address: devnet.usdc,
      abi: erc20Abi,
      eventName: "Transfer",
      args: { to: settlement },
      fromBlock: 0n,
    });
    expect(transfers).toHaveLength(1);
    expect(await devnet.usdcBalance(settlement)).toBe(parseUnits("40", 6));
  }, 480_000);
});
