// Settlement changes are announced to owners; the development mailbox takes the emails.
process.env.SERVICE_DEV_MAILBOX = "true";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import {
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  keccak256,
  parseEther,
  parseEventLogs,
  parseUnits,
} from "viem";
import { beforeAll, describe, expect, it } from "vitest";
import { PUT as putOrganization } from "@/app/api/private/organization/current/route";
import { devnetFunder } from "@/lib/chains/devnet-account";
import type { EvmNetworkConfig } from "@/lib/chains/networks";
import { createCheckoutSession } from "@/lib/checkout/create-checkout-session";
import { startPayment } from "@/lib/checkout/start-payment";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import { buildMcpServer } from "@/lib/mcp/build-mcp-server";
import { metrics } from "@/lib/metrics/metrics";
import { scanNetwork } from "@/lib/payments/scan-network";
import { applyDueSettlementChanges } from "@/lib/settlement/apply-due-settlement-changes";
import { requestSettlementChange } from "@/lib/settlement/request-settlement-change";
import { createWebhookEndpoint } from "@/lib/webhooks/create-webhook-endpoint";
import { sendTestEvent } from "@/lib/webhooks/send-test-event";
import { callRoute } from "@/scripts/test-support/call-route";
import {
  createTestAgentCredential,
  createTestOrganization,
  reportTestWallet,
  setTestSettlementWallets,
} from "@/scripts/test-support/fixtures";
import { testDevnetForFile } from "@/scripts/test-support/test-devnet";
import { type AdvanceOptions, advanceSweeps } from "./advance-sweeps";
import { planSweeps } from "./plan-sweeps";
import { reconcileDepositBalances } from "./reconcile-deposit-balances";
import { retrySweep } from "./retry-sweep";
import { sweeperKeysFromMnemonic } from "./sweeper-keys";

// A real Hardhat node (mining on transactions and when told), the real sweeper code and its keys;
// balances are read back from the chain.
// Not Hardhat's default mnemonic: its first addresses hold devnet ETH, and deposit addresses here
// must start empty so the gas top-up is exercised.
const mnemonic =
  "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";
const keys = sweeperKeysFromMnemonic(mnemonic);
const devnet = testDevnetForFile({ confirmations: 2, mnemonic });
let network: EvmNetworkConfig;

beforeAll(async () => {
  network = devnet.network;
  await devnet.sendEth(keys.gasWallet(network.chainId).address, "10");
}, 120_000);

/** An organization with a fresh settlement wallet on the devnet (or none), and an invoice. */
async function invoiceFor(amount: string, token: "USDC" | "ETH", withWallet = true) {
  const { organization } = await createTestOrganization();
  const settlement = `0x${crypto.randomUUID().replaceAll("-", "").padEnd(40, "5")}` as Hex;
  if (withWallet)
    await setTestSettlementWallets(organization.id, [{ network: "devnet", address: settlement }]);
  const created = await createCheckoutSession(db(), {
    organizationId: organization.id,
    request: { mode: "standalone", amount, currency: "USD", expiresInMinutes: 60 },
    idempotency: null,
  });
  const invoice = await startPayment(db(), {
    checkoutSessionId: (created.body as { id: string }).id,
    network: "devnet",
    token,
  });
  return { organization, invoice, settlement };
}

/** Mines to confirmation depth and lets the watcher count the payments. */
async function confirmPayments() {
  await devnet.mine(2);
  await scanNetwork(db(), network, devnet.client);
}

const plan = (dust?: Record<string, string>) => planSweeps(db(), network, devnet.client, { dust });

/** Sweeper passes with a block mined after each, until the invoice's sweeps settle. */
async function sweepUntilSettled(invoiceId: string, options: Partial<AdvanceOptions> = {}) {
  for (let pass = 0; pass < 10; pass++) {
    await advanceSweeps(db(), network, devnet.client, { keys, ...options });
    const open = await db().sweep.count({
      where: { invoiceId, status: { in: ["PENDING", "FUNDING", "SUBMITTED"] } },
    });
    if (open === 0) break;
    await devnet.mine(1);
  }
  return db().sweep.findMany({ where: { invoiceId }, include: { transactions: true } });
}

/** Token Transfer events into `to` that the sweep's transactions carried. */
async function transfersTo(hashes: string[], to: string) {
  let count = 0;
  for (const hash of hashes) {
    const receipt = await devnet.client.getTransactionReceipt({ hash: hash as Hex }).catch(() => null);
    if (!receipt) continue;
    const logs = parseEventLogs({ abi: erc20Abi, eventName: "Transfer", logs: receipt.logs });
    count += logs.filter((log) => log.args.to.toLowerCase() === to.toLowerCase()).length;
  }
  return count;
}

describe("sweeps on a devnet", () => {
  it("sweeps a USDC payment to the settlement wallet: gas top-up, then the transfer", async () => {
    const { invoice, settlement } = await invoiceFor("25.00", "USDC");
    await devnet.mintUsdc(invoice.depositAddress, "25");
    await confirmPayments();
    expect(await plan()).toMatchObject({ planned: 1 });
    const [sweep] = await sweepUntilSettled(invoice.id);
    expect(sweep).toMatchObject({ status: "CONFIRMED", strategy: "GAS_TOP_UP", toAddress: settlement });
    expect(await devnet.usdcBalance(settlement)).toBe(parseUnits("25", 6));
    expect(await devnet.usdcBalance(invoice.depositAddress)).toBe(0n);
    expect(sweep.transactions.map((transaction) => transaction.kind).sort()).toEqual(["FUNDING", "TRANSFER"]);
    expect(sweep.transactions.every((transaction) => transaction.gasUsed !== null)).toBe(true);
    // Planned again: nothing more to sweep.
    expect(await plan()).toMatchObject({ planned: 0 });
  });

  it("sweeps an ETH payment directly, the amount minus the fee", async () => {
    const { invoice, settlement } = await invoiceFor("30.00", "ETH");
    await devnet.sendEth(invoice.depositAddress, "0.01");
    await confirmPayments();
    expect(await plan()).toMatchObject({ planned: 1 });
    const [sweep] = await sweepUntilSettled(invoice.id);
    expect(sweep).toMatchObject({ status: "CONFIRMED", strategy: "NATIVE" });
    expect(sweep.transactions).toHaveLength(1);
    const received = await devnet.client.getBalance({ address: settlement });
    expect(received).toBe(parseEther(sweep.amountSent?.toFixed() ?? "0"));
    expect(received).toBeLessThan(parseEther("0.01"));
    expect(received).toBeGreaterThan(parseEther("0.0099"));
  });

  it("defers ERC-20 sweeps while the gas wallet is empty, and completes them once it is funded", async () => {
    const emptyGas = sweeperKeysFromMnemonic(
      "legal winner thank year wave sausage worth useful legal winner thank yellow",
    ).gasWallet;
    const { invoice, settlement } = await invoiceFor("12.00", "USDC");
    await devnet.mintUsdc(invoice.depositAddress, "12");
    await confirmPayments();
    await plan();
    const poorKeys = { ...keys, gasWallet: emptyGas };
    await advanceSweeps(db(), network, devnet.client, { keys: poorKeys });
    const deferred = await db().sweep.findFirstOrThrow({ where: { invoiceId: invoice.id } });
    expect(deferred.status).toBe("DEFERRED");
    expect(deferred.failureReason).toContain(emptyGas(network.chainId).address);
    expect(await devnet.usdcBalance(invoice.depositAddress)).toBe(parseUnits("12", 6));

    await devnet.sendEth(emptyGas(network.chainId).address, "1");
    const [sweep] = await sweepUntilSettled(invoice.id, { keys: poorKeys });
    expect(sweep).toMatchObject({ status: "CONFIRMED", failureReason: null });
    expect(await devnet.usdcBalance(settlement)).toBe(parseUnits("12", 6));
  });

  it("replaces a stuck transaction with a higher fee, and only one of them moves the money", async () => {
    const { invoice, settlement } = await invoiceFor("60.00", "ETH");
    await devnet.sendEth(invoice.depositAddress, "0.02");
    await confirmPayments();
    await plan();
    await devnet.rpc("evm_setAutomine", [false]);
    try {
      await advanceSweeps(db(), network, devnet.client, { keys });
      const later = new Date(Date.now() + 120_000);
      await advanceSweeps(db(), network, devnet.client, { keys, now: later, stuckAfterMs: 60_000 });
    } finally {
      await devnet.rpc("evm_setAutomine", [true]);
    }
    await devnet.mine(1);
    const [sweep] = await sweepUntilSettled(invoice.id);
    expect(sweep.status).toBe("CONFIRMED");
    expect(sweep.transactions).toHaveLength(2);
    const [first, second] = [...sweep.transactions].sort(
      (a, b) => a.createdAt.getTime() - b.createdAt.getTime(),
    );
    expect(first.replacedAt).not.toBeNull();
    expect(second.nonce).toBe(first.nonce);
    expect(BigInt(second.maxFeePerGas.toFixed())).toBeGreaterThan(BigInt(first.maxFeePerGas.toFixed()));
    expect(second.blockHash).not.toBeNull();
    expect(await devnet.client.getBalance({ address: settlement })).toBe(
      parseEther(sweep.amountSent?.toFixed() ?? "0"),
    );
  });

  it("broadcasts the transfer again once when its block is reorganised away", async () => {
    const { invoice, settlement } = await invoiceFor("7.00", "USDC");
    await devnet.mintUsdc(invoice.depositAddress, "7");
    await confirmPayments();
    await plan();
    await advanceSweeps(db(), network, devnet.client, { keys }); // top-up, mined at once
    const snapshot = await devnet.rpc("evm_snapshot");
    await advanceSweeps(db(), network, devnet.client, { keys }); // transfer, mined at once
    await advanceSweeps(db(), network, devnet.client, { keys }); // sees it mined, 1 confirmation
    const mined = await db().signedTransaction.findFirstOrThrow({
      where: { sweep: { invoiceId: invoice.id }, kind: "TRANSFER" },
    });
    expect(mined.blockHash).not.toBeNull();
    await devnet.rpc("evm_revert", [snapshot]);
    await devnet.mine(1);
    const [sweep] = await sweepUntilSettled(invoice.id);
    expect(sweep).toMatchObject({ status: "CONFIRMED", resubmissions: 1 });
    expect(sweep.transactions.filter((transaction) => transaction.kind === "TRANSFER")).toHaveLength(1);
    expect(await devnet.usdcBalance(settlement)).toBe(parseUnits("7", 6));
  });

  it("after a crash between recording and broadcasting, sends the recorded transaction, not a second one", async () => {
    const { invoice, settlement } = await invoiceFor("9.00", "USDC");
    await devnet.mintUsdc(invoice.depositAddress, "9");
    await confirmPayments();
    await plan();
    await advanceSweeps(db(), network, devnet.client, { keys }); // top-up
    const crash = () => {
      throw new Error("killed");
    };
    await advanceSweeps(db(), network, devnet.client, { keys, beforeBroadcast: crash });
    const recorded = await db().sweep.findFirstOrThrow({ where: { invoiceId: invoice.id } });
    expect(recorded.status).toBe("SUBMITTED");
    expect(await devnet.usdcBalance(settlement)).toBe(0n);
    const [sweep] = await sweepUntilSettled(invoice.id);
    expect(sweep.status).toBe("CONFIRMED");
    const hashes = sweep.transactions.map((transaction) => transaction.hash);
    expect(await transfersTo(hashes, settlement)).toBe(1);
    expect(await devnet.usdcBalance(settlement)).toBe(parseUnits("9", 6));
  });

  it("lets dust wait, then sweeps it with later payments once over the threshold", async () => {
    const { invoice, settlement } = await invoiceFor("2.00", "USDC");
    const dust = { "devnet/USDC": "1" };
    await devnet.mintUsdc(invoice.depositAddress, "0.4");
    await confirmPayments();
    expect(await plan(dust)).toMatchObject({ planned: 0, belowDust: 1 });
    expect(await db().sweep.count({ where: { invoiceId: invoice.id } })).toBe(0);
    await devnet.mintUsdc(invoice.depositAddress, "0.7");
    await confirmPayments();
    expect(await plan(dust)).toMatchObject({ planned: 1 });
    const [sweep] = await sweepUntilSettled(invoice.id);
    expect(sweep.amount.toFixed()).toBe("1.1");
    expect(await devnet.usdcBalance(settlement)).toBe(parseUnits("1.1", 6));
  });

  it("moves nothing without a settlement wallet for the network", async () => {
    const { invoice } = await invoiceFor("3.00", "USDC", false);
    await devnet.mintUsdc(invoice.depositAddress, "3");
    await confirmPayments();
    expect(await plan()).toMatchObject({ planned: 0, noSettlementWallet: 1 });
    expect(await db().sweep.count({ where: { invoiceId: invoice.id } })).toBe(0);
  });

  it("creates no sweep for a test event", async () => {
    const { organization } = await createTestOrganization();
    await setTestSettlementWallets(organization.id, [
      { network: "devnet", address: "0x000000000000000000000000000000000000dEaD" },
    ]);
    const endpoint = await createWebhookEndpoint(db(), organization.id, {
      name: "Test",
      url: "https://example.com/hook",
      adapter: "NONE",
      enabled: true,
    });
    await sendTestEvent(db(), organization.id, endpoint.endpoint.id);
    await devnet.mine(2);
    await plan();
    expect(await db().sweep.count({ where: { organizationId: organization.id } })).toBe(0);
  });

  it("reconciles deposit balances with the ledger and reports a transfer the ledger does not know", async () => {
    const { invoice } = await invoiceFor("40.00", "USDC");
    await devnet.mintUsdc(invoice.depositAddress, "40");
    await confirmPayments();
    expect(await plan()).toMatchObject({ planned: 1 });
    expect((await sweepUntilSettled(invoice.id))[0].status).toBe("CONFIRMED");
    const reconcile = () => reconcileDepositBalances(db(), network, devnet.client);
    expect(await reconcile()).toEqual([]);
    // Sent after the invoice completed: the watcher no longer follows the address.
    await devnet.mintUsdc(invoice.depositAddress, "1.5");
    expect(await reconcile()).toEqual([
      expect.objectContaining({ invoiceId: invoice.id, token: "USDC", expected: "0", onChain: "1.5" }),
    ]);
  });
});

describe("where sweeps may go", () => {
  const attacker = getAddress("0x000000000000000000000000000000000000bad1");
  const deferrals = async (reason: string) =>
    (await metrics().sweepsDeferred.get()).values.find((value) => value.labels.reason === reason)?.value ?? 0;

  it("keeps sweeping to the wallet in force after an agent's and a member's attempts to change it", async () => {
    const { organization, invoice, settlement } = await invoiceFor("15.00", "USDC");
    const agent = await createTestAgentCredential(organization.id, "write");
    const proposed = await callRoute(putOrganization, "/api/private/organization/current", {
      method: "PUT",
      headers: agent.auth,
      body: { settlementWallets: [{ network: "devnet", address: attacker }] },
    });
    expect(proposed.status).toBe(200);
    expect(proposed.json.data.pendingSettlementWallets).toMatchObject([
      { address: attacker, status: "proposed" },
    ]);

    // A member connected over OAuth with write access: the MCP tool refuses it outright.
    const member = await db().user.create({
      data: { id: newId("user"), email: `member-${invoice.id.toLowerCase()}@example.com` },
    });
    await db().membership.create({
      data: { id: newId("membership"), organizationId: organization.id, userId: member.id, role: "MEMBER" },
    });
    const server = buildMcpServer({
      db: db(),
      caller: {
        organizationId: organization.id,
        credential: { kind: "oauth", id: "oat_member" },
        access: "write",
        role: "member",
        name: "Member's app",
        userId: member.id,
      },
      requestId: "req_member",
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "member", version: "1.0.0" });
    await client.connect(clientSide);
    const refused = await client.callTool({
      name: "service_settlement_configure",
      arguments: { settlementWallets: [{ network: "devnet", address: attacker }] },
    });
    expect(refused.isError).toBe(true);
    expect((refused.content as { text: string }[])[0].text).toMatch(/^owner_only/);
    await client.close();

    await devnet.mintUsdc(invoice.depositAddress, "15");
    await confirmPayments();
    await applyDueSettlementChanges(db(), new Date(Date.now() + 365 * 24 * 3600_000));
    expect(await plan()).toMatchObject({ planned: 1 });
    const [sweep] = await sweepUntilSettled(invoice.id);
    expect(sweep).toMatchObject({ status: "CONFIRMED", toAddress: settlement });
    expect(await devnet.usdcBalance(settlement)).toBe(parseUnits("15", 6));
    expect(await devnet.usdcBalance(attacker)).toBe(0n);
  });

  it("defers a sweep to an address outside the operator's pin: nothing is sent until the pin allows it", async () => {
    const { invoice, settlement } = await invoiceFor("6.00", "USDC");
    await devnet.mintUsdc(invoice.depositAddress, "6");
    await confirmPayments();
    await plan();
    const before = await deferrals("destination_not_pinned");
    const pinned = { devnet: ["0x00000000000000000000000000000000000000b0"] };
    await advanceSweeps(db(), network, devnet.client, { keys, destinations: pinned });
    const deferred = await db().sweep.findFirstOrThrow({
      where: { invoiceId: invoice.id },
      include: { transactions: true },
    });
    expect(deferred).toMatchObject({ status: "DEFERRED", transactions: [] });
    expect(deferred.failureReason).toMatch(/not among the operator's SERVICE_SWEEP_DESTINATIONS/);
    expect(await deferrals("destination_not_pinned")).toBe(before + 1);
    await devnet.mine(2);
    expect(await devnet.usdcBalance(invoice.depositAddress)).toBe(parseUnits("6", 6));
    expect(await devnet.usdcBalance(settlement)).toBe(0n);

    const [sweep] = await sweepUntilSettled(invoice.id, { destinations: { devnet: [settlement] } });
    expect(sweep.status).toBe("CONFIRMED");
    expect(await devnet.usdcBalance(settlement)).toBe(parseUnits("6", 6));
  });

  it("refuses a sweep whose destination is not the wallet in force", async () => {
    const { invoice, settlement } = await invoiceFor("4.00", "ETH");
    await devnet.sendEth(invoice.depositAddress, "0.01");
    await confirmPayments();
    await plan();
    // As if the sweep row had been written by something other than the planner.
    await db().sweep.updateMany({ where: { invoiceId: invoice.id }, data: { toAddress: attacker } });
    const before = await deferrals("destination_not_in_force");
    await advanceSweeps(db(), network, devnet.client, { keys });
    const deferred = await db().sweep.findFirstOrThrow({ where: { invoiceId: invoice.id } });
    expect(deferred.status).toBe("DEFERRED");
    expect(deferred.failureReason).toContain(`the settlement wallet in force on devnet is ${settlement}`);
    expect(await deferrals("destination_not_in_force")).toBe(before + 1);
    expect(await devnet.client.getBalance({ address: attacker })).toBe(0n);
    expect(await devnet.client.getBalance({ address: invoice.depositAddress as Hex })).toBe(
      parseEther("0.01"),
    );
  });

  it.each([
    [
      "an invoice's deposit address",
      async () => (await invoiceFor("1.00", "USDC", false)).invoice.depositAddress,
    ],
    [
      "a deposit address in lower case",
      async () => (await invoiceFor("1.00", "USDC", false)).invoice.depositAddress.toLowerCase(),
    ],
    [
      "a facilitator wallet the signer reported",
      () => reportTestWallet("facilitatorWallet", keys.facilitatorWallet(network.chainId).address),
    ],
  ])(
    "refuses %s as a settlement wallet: 400 address_is_service_wallet, changing nothing",
    async (_case, own) => {
      const { organization } = await createTestOrganization();
      const refused = await callRoute(putOrganization, "/api/private/organization/current", {
        method: "PUT",
        headers: (await createTestAgentCredential(organization.id, "write")).auth,
        body: { settlementWallets: [{ network: "devnet", address: await own() }] },
      });
      expect(refused.status, refused.text).toBe(400);
      expect(refused.json.error).toMatchObject({
        code: "address_is_service_wallet",
        param: "settlementWallets",
      });
      expect(await db().settlementChange.count({ where: { organizationId: organization.id } })).toBe(0);
    },
  );

  it.each([
    ["gas wallet", async () => keys.gasWallet(network.chainId).address],
    ["facilitator wallet", async () => keys.facilitatorWallet(network.chainId).address],
    [
      "refund wallet",
      async (organizationId: string) => {
        const { refundWalletIndex } = await db().organization.findUniqueOrThrow({
          where: { id: organizationId },
        });
        return keys.refundWallet(refundWalletIndex, network.chainId).address;
      },
    ],
    ["deposit address", async () => (await invoiceFor("1.00", "USDC", false)).invoice.depositAddress],
  ])(
    "refuses to sweep to the service's own %s, even as the wallet in force: deferred, nothing sent",
    async (kind, own) => {
      const { organization, invoice } = await invoiceFor("50.00", "USDC");
      await devnet.mintUsdc(invoice.depositAddress, "50");
      await confirmPayments();
      await plan();
      // As if that wallet had been put in force behind the web tier's back (which refuses it).
      const address = await own(organization.id);
      await db().settlementWallet.updateMany({
        where: { organizationId: organization.id },
        data: { address },
      });
      await db().sweep.updateMany({ where: { invoiceId: invoice.id }, data: { toAddress: address } });
      const before = await deferrals("destination_is_service_wallet");
      await advanceSweeps(db(), network, devnet.client, { keys });
      const deferred = await db().sweep.findFirstOrThrow({
        where: { invoiceId: invoice.id },
        include: { transactions: true },
      });
      expect(deferred).toMatchObject({ status: "DEFERRED", transactions: [] });
      expect(deferred.failureReason).toContain(`${address}: it is this service's own ${kind}`);
      expect(await deferrals("destination_is_service_wallet")).toBe(before + 1);
      expect(await devnet.usdcBalance(invoice.depositAddress)).toBe(parseUnits("50", 6));
    },
  );

  it("re-targets a sweep planned before a change took effect to the wallet now in force", async () => {
    const { organization, invoice, settlement } = await invoiceFor("20.00", "USDC");
    await devnet.mintUsdc(invoice.depositAddress, "20");
    await confirmPayments();
    await plan();
    const next = getAddress("0x0000000000000000000000000000000000000e37");
    const [change] = await requestSettlementChange(db(), organization.id, {
      wallets: [{ network: "devnet", address: next }],
      decision: "allow",
      proposedBy: { kind: "api_key", name: "Test key" },
      clientAddress: null,
    });
    expect(change.status).toBe("SCHEDULED");
    // The change takes effect (its delay over) before the planned sweep is signed.
    await applyDueSettlementChanges(db(), change.effectiveAt as Date);
    const [sweep] = await sweepUntilSettled(invoice.id);
    expect(sweep).toMatchObject({ status: "CONFIRMED", toAddress: next });
    expect(await devnet.usdcBalance(next)).toBe(parseUnits("20", 6));
    expect(await devnet.usdcBalance(settlement)).toBe(0n);
  });
});

describe("sweep retries and prices", () => {
  it("follows only the retried attempt's transaction, not the earlier attempt's reverted one", async () => {
    const { organization, invoice, settlement } = await invoiceFor("8.00", "ETH");
    await devnet.sendEth(invoice.depositAddress, "0.01");
    await confirmPayments();
    await plan();
    // The first attempt's transfer reverted on chain (a real reverted transaction).
    const raw = await devnet.wallet.signTransaction(
      await devnet.wallet.prepareTransactionRequest({
        to: devnet.usdc,
        data: encodeFunctionData({
          abi: erc20Abi,
          functionName: "transfer",
          args: [settlement, parseUnits("1000000", 6)],
        }),
        gas: 100_000n,
      }),
    );
    const reverted = keccak256(raw);
    // The node mines it and answers with the revert.
    await devnet.client.sendRawTransaction({ serializedTransaction: raw }).catch(() => null);
    expect((await devnet.client.waitForTransactionReceipt({ hash: reverted })).status).toBe("reverted");
    const planned = await db().sweep.findFirstOrThrow({ where: { invoiceId: invoice.id } });
    await db().sweep.update({
      where: { id: planned.id },
      data: {
        status: "FAILED",
        failureReason: "the transfer reverted",
        transactions: {
          create: {
            id: newId("signedTransaction"),
            kind: "TRANSFER",
            signer: devnetFunder.address,
            nonce: 0,
            hash: reverted,
            raw: "0x02",
            maxFeePerGas: "1000000000",
          },
        },
      },
    });
    await retrySweep(db(), organization.id, { sweepId: planned.id });

    await devnet.rpc("evm_setAutomine", [false]);
    try {
      await advanceSweeps(db(), network, devnet.client, { keys }); // signs the new transfer
      await advanceSweeps(db(), network, devnet.client, { keys }); // still pending: waits
      expect((await db().sweep.findUniqueOrThrow({ where: { id: planned.id } })).status).toBe("SUBMITTED");
    } finally {
      await devnet.rpc("evm_setAutomine", [true]);
    }
    await devnet.mine(1);
    const [sweep] = await sweepUntilSettled(invoice.id);
    expect(sweep).toMatchObject({ status: "CONFIRMED", attempt: 2 });
    expect(await devnet.client.getBalance({ address: settlement })).toBe(
      parseEther(sweep.amountSent?.toFixed() ?? "0"),
    );
  });

  it("sweeps nothing while there is no price to judge dust by", async () => {
    const { invoice } = await invoiceFor("30.00", "USDC");
    await devnet.mintUsdc(invoice.depositAddress, "30");
    await confirmPayments();
    const unpriced = { ...network, priceFeeds: [] };
    expect((await planSweeps(db(), unpriced, devnet.client, {})).noPrice).toBeGreaterThanOrEqual(1);
    expect(await db().sweep.count({ where: { invoiceId: invoice.id } })).toBe(0);
    // With its price back, the value is judged and swept.
    await plan();
    expect(await db().sweep.count({ where: { invoiceId: invoice.id } })).toBe(1);
  });
});
