import { createPublicClient, createWalletClient, type Hex, http, parseEther, parseUnits } from "viem";
import { hardhat } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileTestUsdc } from "@/lib/chains/compile-test-usdc";
import { type Devnet, deployTestUsdc, devnetNetwork, startDevnet } from "@/lib/chains/devnet";
import { devnetFunder } from "@/lib/chains/devnet-account";
import type { NetworkConfig } from "@/lib/chains/networks";
import { createCheckoutSession } from "@/lib/checkout/create-checkout-session";
import { db } from "@/lib/db/client";
import { createTestOrganization } from "@/scripts/test-support/fixtures";
import { markOverdueInvoices } from "./mark-overdue-invoices";
import { scanNetwork } from "./scan-network";
import { startPayment } from "./start-payment";

// A real Hardhat node per file, mining only on transactions (and when told to).
let devnet: Devnet;
let network: NetworkConfig;
const { abi } = compileTestUsdc();

beforeAll(async () => {
  devnet = await startDevnet({ port: 8620 + Math.floor(Math.random() * 70), blockIntervalMs: 0 });
  const usdc = await deployTestUsdc(devnet.rpcUrl);
  network = devnetNetwork({ rpcUrl: devnet.rpcUrl, usdc, confirmations: 3 });
  process.env.SERVICE_NETWORKS = JSON.stringify([network]);
  process.env.SERVICE_HD_MNEMONIC = "test test test test test test test test test test test junk";
}, 120_000);
afterAll(async () => devnet?.stop());

const wallet = () =>
  createWalletClient({ account: devnetFunder, chain: hardhat, transport: http(devnet.rpcUrl) });
const mine = (blocks: number) =>
  devnet.client.request({ method: "hardhat_mine" as never, params: [`0x${blocks.toString(16)}`] as never });

async function pay(to: string, amount: string) {
  const hash = await wallet().writeContract({
    address: network.tokens[0].address as Hex,
    abi,
    functionName: "mint",
    args: [to, parseUnits(amount, 6)],
  });
  await devnet.client.waitForTransactionReceipt({ hash });
  return hash;
}

async function payEth(to: string, amount: string) {
  const hash = await wallet().sendTransaction({ to: to as Hex, value: parseEther(amount) });
  await devnet.client.waitForTransactionReceipt({ hash });
  return hash;
}

async function invoiceFor(amount = "25.00", token = "USDC") {
  const { organization } = await createTestOrganization();
  const created = await createCheckoutSession(db(), {
    organizationId: organization.id,
    request: { mode: "standalone", amount, currency: "USD", expiresInMinutes: 60 },
    idempotency: null,
  });
  return startPayment(db(), {
    checkoutSessionId: (created.body as { id: string }).id,
    network: "devnet",
    token,
  });
}

const events = (invoiceId: string, type: string) => db().event.count({ where: { invoiceId, type } });
const status = async (invoiceId: string) =>
  (await db().invoice.findUniqueOrThrow({ where: { id: invoiceId } })).status;

describe("scanNetwork against a devnet", () => {
  it("sees a transfer, counts confirmations, and confirms once", async () => {
    const invoice = await invoiceFor();
    await pay(invoice.depositAddress, "25");
    await scanNetwork(db(), network, devnet.client);
    expect(await status(invoice.id)).toBe("CONFIRMING");
    await mine(1);
    await scanNetwork(db(), network, devnet.client);
    expect(await status(invoice.id)).toBe("CONFIRMING");
    await mine(1);
    await scanNetwork(db(), network, devnet.client);
    expect(await status(invoice.id)).toBe("CONFIRMED");
    await mine(5);
    await scanNetwork(db(), network, devnet.client);
    expect(await events(invoice.id, "payment.confirmed")).toBe(1);
    const [payment] = await db().payment.findMany({ where: { invoiceId: invoice.id } });
    expect(payment).toMatchObject({ status: "CONFIRMED", late: false });
    expect(payment.amount.toString()).toBe("25");
  });

  it("adds a top-up to a partial payment", async () => {
    const invoice = await invoiceFor("10.00");
    await pay(invoice.depositAddress, "4");
    await scanNetwork(db(), network, devnet.client);
    expect(await db().invoice.findUniqueOrThrow({ where: { id: invoice.id } })).toMatchObject({
      status: "PARTIALLY_PAID",
    });
    await pay(invoice.depositAddress, "6");
    await mine(3);
    await scanNetwork(db(), network, devnet.client);
    const updated = await db().invoice.findUniqueOrThrow({ where: { id: invoice.id } });
    expect(updated.status).toBe("CONFIRMED");
    expect(updated.amountPaid.toString()).toBe("10");
    expect(await db().payment.count({ where: { invoiceId: invoice.id } })).toBe(2);
  });

  it("never confirms a payment whose block was reorganised away", async () => {
    const invoice = await invoiceFor("5.00");
    const snapshot = await devnet.client.request({ method: "evm_snapshot" as never });
    await pay(invoice.depositAddress, "5");
    await scanNetwork(db(), network, devnet.client);
    expect(await status(invoice.id)).toBe("CONFIRMING");
    await devnet.client.request({ method: "evm_revert" as never, params: [snapshot] as never });
    await mine(4);
    await scanNetwork(db(), network, devnet.client);
    expect(await status(invoice.id)).toBe("AWAITING_PAYMENT");
    expect((await db().payment.findFirstOrThrow({ where: { invoiceId: invoice.id } })).status).toBe(
      "REORGED",
    );
    await mine(4);
    await scanNetwork(db(), network, devnet.client);
    expect(await events(invoice.id, "payment.confirmed")).toBe(0);
  });

  it("resumes from its cursor without missing or double-counting transfers", async () => {
    const invoice = await invoiceFor("8.00");
    await pay(invoice.depositAddress, "3");
    await scanNetwork(db(), network, devnet.client);
    // Transfers while the watcher is "down", then two passes (a restart re-reads the cursor).
    await pay(invoice.depositAddress, "5");
    await mine(3);
    await scanNetwork(db(), network, devnet.client);
    await scanNetwork(db(), network, devnet.client);
    expect(await db().payment.count({ where: { invoiceId: invoice.id } })).toBe(2);
    expect(await status(invoice.id)).toBe("CONFIRMED");
    expect(await events(invoice.id, "payment.confirmed")).toBe(1);
  });
});

describe("the deadline job", () => {
  it("makes an unpaid invoice overdue once, and a late payment still completes it", async () => {
    const invoice = await invoiceFor("7.00");
    const afterDeadline = new Date(invoice.deadline.getTime() + 1000);
    expect(await markOverdueInvoices(db(), afterDeadline)).toBeGreaterThanOrEqual(1);
    expect(await status(invoice.id)).toBe("OVERDUE");
    await markOverdueInvoices(db(), afterDeadline);
    expect(await events(invoice.id, "invoice.overdue")).toBe(1);

    await pay(invoice.depositAddress, "7");
    await mine(3);
    await scanNetwork(db(), network, devnet.client, { now: afterDeadline });
    expect(await status(invoice.id)).toBe("CONFIRMED");
    const [payment] = await db().payment.findMany({ where: { invoiceId: invoice.id } });
    expect(payment.late).toBe(true);
    const confirmed = await db().event.findFirstOrThrow({
      where: { invoiceId: invoice.id, type: "payment.confirmed" },
    });
    expect(confirmed.payload).toMatchObject({ late: true, amountPaid: "7" });
  });
});

describe("native ETH payments", () => {
  it("quotes ETH from the rate table and confirms a plain transfer once", async () => {
    const invoice = await invoiceFor("25.00", "ETH");
    // 25 USD at 3000 USD/ETH, rounded up to 18 decimals.
    expect(invoice.amountDue.toString()).toBe("0.008333333333333334");
    await payEth(invoice.depositAddress, "0.008333333333333334");
    await scanNetwork(db(), network, devnet.client);
    expect(await status(invoice.id)).toBe("CONFIRMING");
    await mine(2);
    await scanNetwork(db(), network, devnet.client);
    await mine(3);
    await scanNetwork(db(), network, devnet.client);
    expect(await status(invoice.id)).toBe("CONFIRMED");
    expect(await events(invoice.id, "payment.confirmed")).toBe(1);
    const payments = await db().payment.findMany({ where: { invoiceId: invoice.id } });
    expect(payments).toHaveLength(1);
    expect(payments[0]).toMatchObject({ logIndex: -1, status: "CONFIRMED", late: false });
    expect(payments[0].amount.toString()).toBe("0.008333333333333334");
  });

  it("adds a top-up to a partial ETH payment", async () => {
    const invoice = await invoiceFor("30.00", "ETH");
    expect(invoice.amountDue.toString()).toBe("0.01");
    await payEth(invoice.depositAddress, "0.004");
    await scanNetwork(db(), network, devnet.client);
    expect(await status(invoice.id)).toBe("PARTIALLY_PAID");
    await payEth(invoice.depositAddress, "0.006");
    await mine(3);
    await scanNetwork(db(), network, devnet.client);
    const updated = await db().invoice.findUniqueOrThrow({ where: { id: invoice.id } });
    expect(updated.status).toBe("CONFIRMED");
    expect(updated.amountPaid.toString()).toBe("0.01");
    expect(await db().payment.count({ where: { invoiceId: invoice.id } })).toBe(2);
  });

  it("un-counts an ETH payment whose block was reorganised away", async () => {
    const invoice = await invoiceFor("3.00", "ETH");
    const snapshot = await devnet.client.request({ method: "evm_snapshot" as never });
    await payEth(invoice.depositAddress, "0.001");
    await scanNetwork(db(), network, devnet.client);
    expect(await status(invoice.id)).toBe("CONFIRMING");
    await devnet.client.request({ method: "evm_revert" as never, params: [snapshot] as never });
    await mine(4);
    await scanNetwork(db(), network, devnet.client);
    expect(await status(invoice.id)).toBe("AWAITING_PAYMENT");
    expect((await db().payment.findFirstOrThrow({ where: { invoiceId: invoice.id } })).status).toBe(
      "REORGED",
    );
    await mine(4);
    await scanNetwork(db(), network, devnet.client);
    expect(await events(invoice.id, "payment.confirmed")).toBe(0);
  });

  it("does not count a reverted transaction to a deposit address, nor another token sent there", async () => {
    const invoice = await invoiceFor("3.00", "ETH");
    // An address with code that reverts (PUSH1 0 PUSH1 0 REVERT) makes the value transfer fail
    // while the transaction is still mined, with status 0.
    await devnet.client.request({
      method: "hardhat_setCode" as never,
      params: [invoice.depositAddress, "0x60006000fd"] as never,
    });
    // Without automine Hardhat mines the failing transaction instead of rejecting it.
    await devnet.client.request({ method: "evm_setAutomine" as never, params: [false] as never });
    const hash = await wallet().sendTransaction({
      to: invoice.depositAddress as Hex,
      value: parseEther("0.001"),
      gas: 100_000n,
    });
    await mine(1);
    await devnet.client.request({ method: "evm_setAutomine" as never, params: [true] as never });
    expect((await devnet.client.getTransactionReceipt({ hash })).status).toBe("reverted");
    await devnet.client.request({
      method: "hardhat_setCode" as never,
      params: [invoice.depositAddress, "0x"] as never,
    });
    await pay(invoice.depositAddress, "3");
    await mine(4);
    await scanNetwork(db(), network, devnet.client);
    expect(await status(invoice.id)).toBe("AWAITING_PAYMENT");
    expect(await db().payment.count({ where: { invoiceId: invoice.id } })).toBe(0);
  });

  it("fetches each block of the range once, however many invoices are open", async () => {
    for (let index = 0; index < 20; index++) await invoiceFor("1.00", "ETH");
    await scanNetwork(db(), network, devnet.client);
    await mine(5);
    const calls: string[] = [];
    const counting = createPublicClient({
      transport: http(devnet.rpcUrl, {
        onFetchRequest: async (request) => {
          const body = await request.clone().json();
          for (const call of [body].flat()) calls.push(call.method);
        },
      }),
      cacheTime: 0,
    });
    await scanNetwork(db(), network, counting);
    expect(calls.filter((method) => method === "eth_getBlockByNumber")).toHaveLength(5);
    expect(calls.filter((method) => method === "eth_getTransactionReceipt")).toHaveLength(0);
  });
});
