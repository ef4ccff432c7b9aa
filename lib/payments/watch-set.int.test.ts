import { createPublicClient, http } from "viem";
import { privateKeyToAddress } from "viem/accounts";
import { beforeAll, describe, expect, inject, it, vi } from "vitest";
import type { NetworkConfig } from "@/lib/chains/networks";
import { db } from "@/lib/db/client";
import { type PeriodicTask, runTaskOnce } from "@/lib/jobs/periodic-task";
import { insertBulkInvoices } from "@/scripts/test-support/bulk-invoices";
import { createTestOrganization, startTestPayment } from "@/scripts/test-support/fixtures";
import { startLimitedRpc } from "@/scripts/test-support/limited-rpc";
import { testDevnetForFile } from "@/scripts/test-support/test-devnet";
import { scanNetwork } from "./scan-network";
import { watchConfiguredNetworks } from "./watch-networks";
import type { WatchSets } from "./watch-set";

// The chain watcher's watch set in memory, on a real Hardhat node and PostgreSQL: what it costs at
// scale, and that nothing paid is missed when the set is read whole, caught up, or handed over.
const devnet = testDevnetForFile({ confirmations: 3 });
let network: NetworkConfig;

beforeAll(() => {
  network = devnet.network;
});

async function invoiceFor(token: string, amount = "30.00") {
  const { organization } = await createTestOrganization();
  return startTestPayment(organization.id, token, amount);
}

const status = async (invoiceId: string) =>
  (await db().invoice.findUniqueOrThrow({ where: { id: invoiceId } })).status;
const confirmedEvents = (invoiceId: string) =>
  db().event.count({ where: { invoiceId, type: "payment.confirmed" } });

/** Watching starts at the current head, as if every earlier block had been scanned. */
async function cursorAtHead() {
  const head = await devnet.client.getBlockNumber();
  await db().chainCursor.upsert({
    where: { network: network.id },
    create: { network: network.id, lastScannedBlock: head },
    update: { lastScannedBlock: head },
  });
}

// A transaction left open while another reads takes two sessions: the embedded database
// multiplexes its connections into one, where the read would wait for the commit.
if (inject("testDatabase").mode === "server") {
  describe("catching up from the cursor", () => {
    it("finds an invoice whose transaction began before a read and committed after it", async () => {
      const { organization } = await createTestOrganization("Slow Commit Store");
      const address = privateKeyToAddress(`0x${"7".repeat(64)}`);
      const watchSets: WatchSets = new Map();
      await cursorAtHead();
      await scanNetwork(db(), network, devnet.client, { watchSets });
      await db().$transaction(
        async (tx) => {
          await tx.$executeRaw`
          INSERT INTO "CheckoutSession" ("id", "organizationId", "status", "amount", "currency", "expiresAt", "updatedAt")
          VALUES ('ycs_slow', ${organization.id}, 'COMPLETED', 2, 'USD', now(), now())`;
          await tx.$executeRaw`
          INSERT INTO "Invoice" ("id", "organizationId", "checkoutSessionId", "network", "token", "depositAddress",
            "derivationIndex", "amountDue", "pricingAmount", "pricingCurrency", "rate", "amountUsd", "quotedAt",
            "quoteSource", "status", "deadline", "updatedAt")
          VALUES ('inv_slow', ${organization.id}, 'ycs_slow', 'devnet', 'USDC', ${address}, 2000000, 2, 2, 'USD', 1,
            2, now(), 'test', 'AWAITING_PAYMENT', now() + interval '1 hour', now())`;
          // Reads while the insert is still uncommitted: the set moves on without it.
          await scanNetwork(db(), network, devnet.client, { watchSets });
          // A scan on a busy machine (or the one-connection embedded database) can outlast the
          // default five seconds an interactive transaction may stay open.
        },
        { timeout: 60_000 },
      );
      await devnet.mintUsdc(address, "2");
      await devnet.mine(2);
      await scanNetwork(db(), network, devnet.client, { watchSets });
      expect(await status("inv_slow")).toBe("CONFIRMED");
    });
  });
}

describe("the hourly whole read", () => {
  it("happens in the background and misses nothing changed while it ran", async () => {
    const watchSets: WatchSets = new Map();
    await cursorAtHead();
    await scanNetwork(db(), network, devnet.client, { watchSets });
    const first = watchSets.get("devnet");
    const later = new Date(Date.now() + 61 * 60_000);
    // Due: the scan starts the read and goes on with the set it has.
    await scanNetwork(db(), network, devnet.client, { watchSets, now: later });
    expect(watchSets.get("devnet")).toBe(first);
    await vi.waitFor(() => expect(first?.rebuild?.done).toBeDefined());
    // Created after the read: the next scan swaps the sets and catches the new one up.
    const invoice = await invoiceFor("USDC", "3.00");
    await devnet.mintUsdc(invoice.depositAddress, "3");
    await scanNetwork(db(), network, devnet.client, { watchSets, now: later });
    expect(watchSets.get("devnet")).not.toBe(first);
    expect(await status(invoice.id)).toBe("CONFIRMING");
  });
});

/** A watcher instance as the app runs one: its own memory, the scan lease under its own name. */
function watcherInstance(owner: string) {
  const watchSets: WatchSets = new Map();
  const task: PeriodicTask = {
    name: "scan-networks-handover",
    intervalMs: 100,
    cron: "* * * * *",
    leaseMs: 3_000,
    run: (database, { signal }) => watchConfiguredNetworks(database, signal, watchSets),
  };
  let running: { controller: AbortController; pass: Promise<boolean> } | undefined;
  return {
    watchSets,
    /** Takes the lease and follows heads until stopped; false when another instance holds it. */
    start: async () => {
      const controller = new AbortController();
      const pass = runTaskOnce(db(), task, owner, controller.signal);
      // Running once the lease row names this instance; refused when the pass ends without it.
      // Read from the row, not after a fixed wait, which a busy machine can outlast.
      let ended = false;
      const holdsLease = async () => {
        while (!ended) {
          const lease = await db().jobLease.findUnique({ where: { name: task.name } });
          if (lease?.owner === owner) return "running";
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      };
      const settled = await Promise.race([pass, holdsLease()]).finally(() => {
        ended = true;
      });
      if (settled === false) return false;
      running = { controller, pass };
      return true;
    },
    /** Stops following and gives the lease up. */
    stop: async () => {
      running?.controller.abort(new Error("stopped"));
      await running?.pass;
      running = undefined;
    },
  };
}

// A hang guard: beside the rest of CI, the embedded database's one connection can take over 10 s
// to see a payment through.
const waitForStatus = (invoiceId: string, expected: string) =>
  vi.waitFor(async () => expect(await status(invoiceId)).toBe(expected), { timeout: 30_000, interval: 100 });

describe("the watch set across a lease hand-over and a restart", () => {
  it("finds every payment, including those made while no instance held the lease", async () => {
    await cursorAtHead();
    const a = watcherInstance("instance-a");
    const b = watcherInstance("instance-b");
    const beforeHandOver = await invoiceFor("USDC");
    expect(await a.start()).toBe(true);
    try {
      const first = await invoiceFor("USDC", "5.00");
      await devnet.mintUsdc(first.depositAddress, "5");
      await devnet.mine(2);
      await waitForStatus(first.id, "CONFIRMED");
      // While a holds the lease b cannot watch.
      expect(await b.start()).toBe(false);
    } finally {
      await a.stop();
    }

    // Nobody watches: an invoice a knew is paid, and one a never saw is created and paid.
    const whileNobody = await invoiceFor("ETH");
    await devnet.mintUsdc(beforeHandOver.depositAddress, "30");
    await devnet.sendEth(whileNobody.depositAddress, "0.01");
    await devnet.mine(2);

    // b starts with nothing in memory (as after a restart) and reads the set whole.
    expect(await b.start()).toBe(true);
    const whileB = await invoiceFor("USDC", "7.00");
    try {
      await waitForStatus(beforeHandOver.id, "CONFIRMED");
      await waitForStatus(whileNobody.id, "CONFIRMED");
    } finally {
      await b.stop();
    }

    // a takes the lease back with its memory from before b's turn: it catches up from its cursor.
    const afterB = await invoiceFor("ETH");
    await devnet.mintUsdc(whileB.depositAddress, "7");
    await devnet.sendEth(afterB.depositAddress, "0.01");
    await devnet.mine(2);
    const known = a.watchSets.get("devnet");
    expect(known?.byToken.get("USDC")?.has(whileB.depositAddress.toLowerCase())).toBe(false);
    expect(await a.start()).toBe(true);
    try {
      await waitForStatus(whileB.id, "CONFIRMED");
      await waitForStatus(afterB.id, "CONFIRMED");
    } finally {
      await a.stop();
    }
    // Caught up, not read whole.
    expect(a.watchSets.get("devnet")).toBe(known);
    for (const invoice of [beforeHandOver, whileNobody, whileB, afterB]) {
      expect(await db().payment.count({ where: { invoiceId: invoice.id } })).toBe(1);
      expect(await confirmedEvents(invoice.id)).toBe(1);
    }
  }, 180_000);
});

// Last in the file: its 100,000 invoices stay (the file's database is dropped after it).
describe("a payment among 100,000 watched invoices", () => {
  it("is found, with one getLogs and one block read per block however many are watched", async () => {
    const { organization } = await createTestOrganization("Busy Store");
    // 100,000 open invoices inside their window, half USDC and half ETH, on addresses nobody pays.
    await insertBulkInvoices({
      organizationId: organization.id,
      prefix: "busy",
      from: 1,
      to: 100000,
      amount: 1,
      status: "AWAITING_PAYMENT",
      deadline: "1 hour",
    });
    const usdcInvoice = await invoiceFor("USDC", "9.00");
    const ethInvoice = await invoiceFor("ETH");
    const rpc = await startLimitedRpc(devnet.rpcUrl, { maxBlockRange: 2000, maxAddresses: 1000 });
    const calls: string[] = [];
    const client = createPublicClient({
      transport: http(rpc.url, {
        onFetchRequest: async (request) => {
          for (const call of [await request.clone().json()].flat()) calls.push(call.method);
        },
      }),
      cacheTime: 0,
    });
    const limited = { ...network, rpcUrl: rpc.url };
    try {
      await cursorAtHead();
      const watchSets: WatchSets = new Map();
      // The first scan reads the set whole; the next ones only what changed.
      await scanNetwork(db(), limited, client, { watchSets });
      expect(watchSets.get("devnet")?.byToken.get("USDC")?.size).toBeGreaterThanOrEqual(50_000);
      await devnet.mintUsdc(usdcInvoice.depositAddress, "9");
      await devnet.sendEth(ethInvoice.depositAddress, "0.01");
      rpc.getLogs.length = 0;
      calls.length = 0;
      await scanNetwork(db(), limited, client, { watchSets });
      expect(await status(usdcInvoice.id)).toBe("CONFIRMING");
      expect(await status(ethInvoice.id)).toBe("CONFIRMING");
      // Two blocks: one unfiltered getLogs for the range, each block read once, a receipt for the match.
      expect(rpc.getLogs.map((call) => call.addresses)).toEqual([0]);
      expect(calls.filter((method) => method === "eth_getBlockByNumber")).toHaveLength(2);
      expect(calls.filter((method) => method === "eth_getTransactionReceipt")).toHaveLength(1);
      await devnet.mine(2);
      await scanNetwork(db(), limited, client, { watchSets });
      expect(await status(usdcInvoice.id)).toBe("CONFIRMED");
      expect(await status(ethInvoice.id)).toBe("CONFIRMED");
      // Paid invoices leave the set on the next scan.
      await scanNetwork(db(), limited, client, { watchSets });
      const usdc = watchSets.get("devnet")?.byToken.get("USDC");
      expect(usdc?.has(usdcInvoice.depositAddress.toLowerCase())).toBe(false);
    } finally {
      await rpc.close();
    }
    // A hang guard, not a speed check (bench/watcher.ts measures that): 6 s alone on the embedded
    // database, over 60 s beside the rest of CI on a busy 2-core machine.
  }, 180_000);
});
