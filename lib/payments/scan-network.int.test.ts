import {
  createPublicClient,
  createWalletClient,
  erc20Abi,
  getAddress,
  type Hex,
  http,
  parseEther,
  parseUnits,
  zeroAddress,
} from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { hardhat } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { addressBatchSize } from "@/lib/chains/evm/read-evm-transfers";
import type { NetworkConfig } from "@/lib/chains/networks";
import { db } from "@/lib/db/client";
import { type PeriodicTask, runTaskOnce, startPeriodicTask } from "@/lib/jobs/periodic-task";
import { backgroundTasks } from "@/lib/tasks/background-tasks";
import { insertBulkInvoices } from "@/scripts/test-support/bulk-invoices";
import { createTestOrganization, startTestPayment } from "@/scripts/test-support/fixtures";
import { startLimitedRpc } from "@/scripts/test-support/limited-rpc";
import { startTestDevnet, type TestDevnet } from "@/scripts/test-support/test-devnet";
import { markOverdueInvoices } from "./mark-overdue-invoices";
import { scanNetwork } from "./scan-network";
import { lateWatchWindowMs } from "./watch-set";

// A real Hardhat node per file, mining only on transactions (and when told to).
let devnet: TestDevnet;
let network: NetworkConfig;

beforeAll(async () => {
  devnet = await startTestDevnet({ confirmations: 3 });
  network = devnet.network;
}, 120_000);
afterAll(async () => devnet?.stop());

async function invoiceFor(amount = "25.00", token = "USDC") {
  const { organization } = await createTestOrganization();
  return startTestPayment(organization.id, token, amount);
}

const events = (invoiceId: string, type: string) => db().event.count({ where: { invoiceId, type } });
const status = async (invoiceId: string) =>
  (await db().invoice.findUniqueOrThrow({ where: { id: invoiceId } })).status;

describe("scanNetwork against a devnet", () => {
  it("sees a transfer, counts confirmations, and confirms once", async () => {
    const invoice = await invoiceFor();
    await devnet.mintUsdc(invoice.depositAddress, "25");
    await scanNetwork(db(), network, devnet.client);
    expect(await status(invoice.id)).toBe("CONFIRMING");
    await devnet.mine(1);
    await scanNetwork(db(), network, devnet.client);
    expect(await status(invoice.id)).toBe("CONFIRMING");
    await devnet.mine(1);
    await scanNetwork(db(), network, devnet.client);
    expect(await status(invoice.id)).toBe("CONFIRMED");
    await devnet.mine(5);
    await scanNetwork(db(), network, devnet.client);
    expect(await events(invoice.id, "payment.confirmed")).toBe(1);
    const [payment] = await db().payment.findMany({ where: { invoiceId: invoice.id } });
    expect(payment).toMatchObject({ status: "CONFIRMED", late: false });
    expect(payment.amount.toString()).toBe("25");
  });

  it("adds a top-up to a partial payment", async () => {
    const invoice = await invoiceFor("10.00");
    await devnet.mintUsdc(invoice.depositAddress, "4");
    await scanNetwork(db(), network, devnet.client);
    expect(await db().invoice.findUniqueOrThrow({ where: { id: invoice.id } })).toMatchObject({
      status: "PARTIALLY_PAID",
    });
    await devnet.mintUsdc(invoice.depositAddress, "6");
    await devnet.mine(3);
    await scanNetwork(db(), network, devnet.client);
    const updated = await db().invoice.findUniqueOrThrow({ where: { id: invoice.id } });
    expect(updated.status).toBe("CONFIRMED");
    expect(updated.amountPaid.toString()).toBe("10");
    expect(await db().payment.count({ where: { invoiceId: invoice.id } })).toBe(2);
  });

  it("never confirms a payment whose block was reorganised away", async () => {
    const invoice = await invoiceFor("5.00");
    const snapshot = await devnet.client.request({ method: "evm_snapshot" as never });
    await devnet.mintUsdc(invoice.depositAddress, "5");
    await scanNetwork(db(), network, devnet.client);
    expect(await status(invoice.id)).toBe("CONFIRMING");
    await devnet.client.request({ method: "evm_revert" as never, params: [snapshot] as never });
    await devnet.mine(4);
    await scanNetwork(db(), network, devnet.client);
    expect(await status(invoice.id)).toBe("AWAITING_PAYMENT");
    expect((await db().payment.findFirstOrThrow({ where: { invoiceId: invoice.id } })).status).toBe(
      "REORGED",
    );
    await devnet.mine(4);
    await scanNetwork(db(), network, devnet.client);
    expect(await events(invoice.id, "payment.confirmed")).toBe(0);
  });

  it("resumes from its cursor without missing or double-counting transfers", async () => {
    const invoice = await invoiceFor("8.00");
    await devnet.mintUsdc(invoice.depositAddress, "3");
    await scanNetwork(db(), network, devnet.client);
    // Transfers while the watcher is "down", then two passes (a restart re-reads the cursor).
    await devnet.mintUsdc(invoice.depositAddress, "5");
    await devnet.mine(3);
    await scanNetwork(db(), network, devnet.client);
    await scanNetwork(db(), network, devnet.client);
    expect(await db().payment.count({ where: { invoiceId: invoice.id } })).toBe(2);
    expect(await status(invoice.id)).toBe("CONFIRMED");
    expect(await events(invoice.id, "payment.confirmed")).toBe(1);
  });
});

describe("who paid", () => {
  // Hardhat's second development account, as a buyer paying from their own wallet.
  const buyer = privateKeyToAccount("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d");

  it("records the sender of a token transfer, of a native payment, and the zero address for a mint", async () => {
    const fromBuyer = await invoiceFor("8.00");
    await devnet.mintUsdc(buyer.address, "8");
    const buyerWallet = createWalletClient({
      account: buyer,
      chain: hardhat,
      transport: http(devnet.rpcUrl),
    });
    await devnet.client.waitForTransactionReceipt({
      hash: await buyerWallet.writeContract({
        address: network.tokens[0].address as Hex,
        abi: erc20Abi,
        functionName: "transfer",
        args: [fromBuyer.depositAddress as Hex, parseUnits("8", 6)],
      }),
    });
    const minted = await invoiceFor("3.00");
    await devnet.mintUsdc(minted.depositAddress, "3");
    const native = await invoiceFor("30.00", "ETH");
    await devnet.sendEth(native.depositAddress, "0.01");
    await scanNetwork(db(), network, devnet.client);

    const sender = async (invoiceId: string) =>
      (await db().payment.findFirstOrThrow({ where: { invoiceId } })).fromAddress;
    expect(await sender(fromBuyer.id)).toBe(getAddress(buyer.address));
    expect(await sender(minted.id)).toBe(zeroAddress);
    expect(await sender(native.id)).toBe(getAddress(devnet.wallet.account.address));
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

    await devnet.mintUsdc(invoice.depositAddress, "7");
    await devnet.mine(3);
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
    await devnet.sendEth(invoice.depositAddress, "0.008333333333333334");
    await scanNetwork(db(), network, devnet.client);
    expect(await status(invoice.id)).toBe("CONFIRMING");
    await devnet.mine(2);
    await scanNetwork(db(), network, devnet.client);
    await devnet.mine(3);
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
    await devnet.sendEth(invoice.depositAddress, "0.004");
    await scanNetwork(db(), network, devnet.client);
    expect(await status(invoice.id)).toBe("PARTIALLY_PAID");
    await devnet.sendEth(invoice.depositAddress, "0.006");
    await devnet.mine(3);
    await scanNetwork(db(), network, devnet.client);
    const updated = await db().invoice.findUniqueOrThrow({ where: { id: invoice.id } });
    expect(updated.status).toBe("CONFIRMED");
    expect(updated.amountPaid.toString()).toBe("0.01");
    expect(await db().payment.count({ where: { invoiceId: invoice.id } })).toBe(2);
  });

  it("un-counts an ETH payment whose block was reorganised away", async () => {
    const invoice = await invoiceFor("3.00", "ETH");
    const snapshot = await devnet.client.request({ method: "evm_snapshot" as never });
    await devnet.sendEth(invoice.depositAddress, "0.001");
    await scanNetwork(db(), network, devnet.client);
    expect(await status(invoice.id)).toBe("CONFIRMING");
    await devnet.client.request({ method: "evm_revert" as never, params: [snapshot] as never });
    await devnet.mine(4);
    await scanNetwork(db(), network, devnet.client);
    expect(await status(invoice.id)).toBe("AWAITING_PAYMENT");
    expect((await db().payment.findFirstOrThrow({ where: { invoiceId: invoice.id } })).status).toBe(
      "REORGED",
    );
    await devnet.mine(4);
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
    const hash = await devnet.wallet.sendTransaction({
      to: invoice.depositAddress as Hex,
      value: parseEther("0.001"),
      gas: 100_000n,
    });
    await devnet.mine(1);
    await devnet.client.request({ method: "evm_setAutomine" as never, params: [true] as never });
    expect((await devnet.client.getTransactionReceipt({ hash })).status).toBe("reverted");
    await devnet.client.request({
      method: "hardhat_setCode" as never,
      params: [invoice.depositAddress, "0x"] as never,
    });
    await devnet.mintUsdc(invoice.depositAddress, "3");
    await devnet.mine(4);
    await scanNetwork(db(), network, devnet.client);
    expect(await status(invoice.id)).toBe("AWAITING_PAYMENT");
    expect(await db().payment.count({ where: { invoiceId: invoice.id } })).toBe(0);
  });

  it("fetches each block of the range once, however many invoices are open", async () => {
    for (let index = 0; index < 20; index++) await invoiceFor("1.00", "ETH");
    await scanNetwork(db(), network, devnet.client);
    await devnet.mine(5);
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

/** Watching starts at the current head, as if every earlier block had been scanned. */
async function cursorAtHead() {
  const head = await devnet.client.getBlockNumber();
  await db().chainCursor.upsert({
    where: { network: network.id },
    create: { network: network.id, lastScannedBlock: head },
    update: { lastScannedBlock: head },
  });
  return head;
}

/** A devnet behind a provider-like proxy, as the watcher sees it through that provider. */
async function throughProvider(limits: Parameters<typeof startLimitedRpc>[1]) {
  const rpc = await startLimitedRpc(devnet.rpcUrl, limits);
  const limited = { ...network, rpcUrl: rpc.url, maxBlockRange: limits.maxBlockRange };
  const client = createPublicClient({ transport: http(rpc.url), cacheTime: 0 });
  return { rpc, network: limited, client };
}

describe("scanning after downtime (block ranges)", () => {
  it("catches up a gap longer than the provider's block range, in ranges it accepts", async () => {
    const provider = await throughProvider({ maxBlockRange: 50 });
    try {
      const usdcInvoice = await invoiceFor("6.00");
      const ethInvoice = await invoiceFor("30.00", "ETH");
      const start = await cursorAtHead();
      await devnet.mine(120);
      await devnet.mintUsdc(usdcInvoice.depositAddress, "6");
      await devnet.mine(120);
      await devnet.sendEth(ethInvoice.depositAddress, "0.01");
      await devnet.mine(3);
      const head = await devnet.client.getBlockNumber();

      await scanNetwork(db(), provider.network, provider.client);
      expect(await status(usdcInvoice.id)).toBe("CONFIRMED");
      expect(await status(ethInvoice.id)).toBe("CONFIRMED");
      expect(
        (await db().chainCursor.findUniqueOrThrow({ where: { network: "devnet" } })).lastScannedBlock,
      ).toBe(head);
      // Every request within the limit, and together exactly the gap, once.
      const ranges = provider.rpc.getLogs.map((call) => [call.fromBlock, call.toBlock]);
      for (const [from, to] of ranges) expect(to - from + 1n).toBeLessThanOrEqual(50n);
      const starts = [...new Set(ranges.map(([from]) => from))];
      expect(starts[0]).toBe(start + 1n);
      expect(ranges.at(-1)?.[1]).toBe(head);
    } finally {
      await provider.rpc.close();
    }
  });

  it("renews the lease during a long scan, so a second runner never scans alongside it", async () => {
    // 300 blocks in ranges of 10, each getLogs taking 300 ms: a scan of about 9 s, three times
    // the 3 s lease. The lease is renewed every second; a shorter one was lost under CI's load
    // (load average 15 on 2 cores), where a renewal's query can wait most of a second.
    const provider = await throughProvider({ maxBlockRange: 10, getLogsDelayMs: 300 });
    try {
      const start = await cursorAtHead();
      await devnet.mine(300);
      const task: PeriodicTask = {
        name: "long-scan-probe",
        intervalMs: 1000,
        cron: "* * * * *",
        leaseMs: 3_000,
        run: (database, { signal }) => scanNetwork(database, provider.network, provider.client, { signal }),
      };
      let done = false;
      const first = runTaskOnce(db(), task, "instance-a").finally(() => {
        done = true;
      });
      const secondRan: boolean[] = [];
      const cursors: bigint[] = [];
      while (!done) {
        await new Promise((resolve) => setTimeout(resolve, 150));
        secondRan.push(await runTaskOnce(db(), task, "instance-b"));
        const cursor = await db().chainCursor.findUniqueOrThrow({ where: { network: "devnet" } });
        cursors.push(cursor.lastScannedBlock);
      }
      expect(await first).toBe(true);
      expect(secondRan.length).toBeGreaterThan(10);
      expect(secondRan).not.toContain(true);
      // Each range was asked for once, and the cursor moved range by range while the scan ran.
      const starts = provider.rpc.getLogs.map((call) => call.fromBlock);
      expect(new Set(starts).size).toBe(starts.length);
      expect(starts).toHaveLength(30);
      expect(cursors.some((cursor) => cursor > start && cursor < start + 300n)).toBe(true);
    } finally {
      await provider.rpc.close();
    }
  });
});

describe("what the watcher watches", () => {
  describe("among 10,000 stale invoices", () => {
    // 10,000 invoices overdue for longer than the watch window (half USDC, half ETH), and 1,100
    // USDC invoices inside it: more than two batches of addresses. Inserted once for both ways of
    // reading: no scan changes them (nobody pays their addresses).
    beforeAll(async () => {
      const { organization } = await createTestOrganization("Stale Store");
      const bulk = { organizationId: organization.id, prefix: "bulk", amount: 1 };
      await insertBulkInvoices({ ...bulk, from: 1, to: 10000, status: "OVERDUE", deadline: "-25 hours" });
      await insertBulkInvoices({
        ...bulk,
        from: 10001,
        to: 11100,
        status: "AWAITING_PAYMENT",
        deadline: "1 hour",
        token: "USDC",
      });
    });
    afterAll(async () => {
      await db().invoice.deleteMany({ where: { id: { startsWith: "inv_bulk" } } });
      await db().checkoutSession.deleteMany({ where: { id: { startsWith: "ycs_bulk" } } });
    });

    // By address: one filtered getLogs per batch of addresses, never a stale one. The cheaper choice
    // here (1,100 watched addresses, a few quiet blocks): one unfiltered getLogs matched in memory.
    it.each([
      { reading: "by address", logQuery: "by-address" as const },
      { reading: "the cheaper way", logQuery: undefined },
    ])("detects a payment among 10,000 stale invoices, reading logs $reading", async ({ logQuery }) => {
      const usdcInvoice = await invoiceFor("9.00");
      const ethInvoice = await invoiceFor("30.00", "ETH");
      // A provider that refuses filters of more than 1,000 addresses.
      const provider = await throughProvider({ maxBlockRange: 2000, maxAddresses: 1000 });
      try {
        await cursorAtHead();
        await devnet.mintUsdc(usdcInvoice.depositAddress, "9");
        await devnet.sendEth(ethInvoice.depositAddress, "0.01");
        await devnet.mine(3);
        // A watcher starting now (its watch set read whole).
        await scanNetwork(db(), provider.network, provider.client, { logQuery, watchSets: new Map() });
        expect(await status(usdcInvoice.id)).toBe("CONFIRMED");
        expect(await status(ethInvoice.id)).toBe("CONFIRMED");
        const lists = provider.rpc.getLogs.map((call) => call.addresses);
        if (!logQuery) {
          expect(lists).toEqual([0]);
          return;
        }
        const watchedUsdc = await db().invoice.count({
          where: {
            network: "devnet",
            token: "USDC",
            status: { in: ["AWAITING_PAYMENT", "PARTIALLY_PAID", "CONFIRMING", "OVERDUE"] },
            deadline: { gte: new Date(Date.now() - lateWatchWindowMs) },
          },
        });
        expect(Math.max(...lists)).toBeLessThanOrEqual(addressBatchSize);
        expect(lists.length).toBeGreaterThanOrEqual(3);
        // No stale address is asked for: the lists hold exactly the watched invoices (before the
        // fresh one was confirmed), never the 5,000 stale USDC ones.
        expect(lists.reduce((total, count) => total + count, 0)).toBe(watchedUsdc + 1);
      } finally {
        await provider.rpc.close();
      }
    });
  });

  it.each([
    { hours: 23, payments: 1, expected: "CONFIRMED" },
    { hours: 25, payments: 0, expected: "OVERDUE" },
  ])(
    "a payment $hours hours after the deadline: $payments recorded, invoice $expected",
    async ({ hours, payments, expected }) => {
      const invoice = await invoiceFor("4.00");
      const now = new Date();
      await db().invoice.update({
        where: { id: invoice.id },
        data: { status: "OVERDUE", deadline: new Date(now.getTime() - hours * 60 * 60 * 1000) },
      });
      await cursorAtHead();
      await devnet.mintUsdc(invoice.depositAddress, "4");
      await devnet.mine(3);
      await scanNetwork(db(), network, devnet.client, { now });
      expect(await status(invoice.id)).toBe(expected);
      expect(await db().payment.count({ where: { invoiceId: invoice.id, late: true } })).toBe(payments);
    },
  );
});

describe("the watcher task (as the app runs it)", () => {
  // How soon is bench/watcher.ts's to measure (receipt to CONFIRMED, p50/p99): a test asserts that
  // the task as the app runs it gets there on its own, round after round.
  it("confirms each payment once the block that reaches the confirmations is mined", async () => {
    const watcher = backgroundTasks.find((task) => task.name === "scan-networks");
    if (!watcher) throw new Error("no scan-networks task");
    await cursorAtHead();
    const stop = startPeriodicTask(db(), watcher);
    try {
      for (let round = 0; round < 5; round++) {
        const invoice = await invoiceFor("2.00");
        await devnet.mintUsdc(invoice.depositAddress, "2");
        await vi.waitFor(async () => expect(await status(invoice.id)).toBe("CONFIRMING"), {
          timeout: 20_000,
          interval: 20,
        });
        // Confirmations 3: the payment's block and two more; the second of them completes it.
        await devnet.mine(1);
        expect(await status(invoice.id)).toBe("CONFIRMING");
        await devnet.mine(1);
        await vi.waitFor(async () => expect(await status(invoice.id)).toBe("CONFIRMED"), {
          timeout: 20_000,
          interval: 10,
        });
      }
    } finally {
      stop();
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }, 120_000);
});
