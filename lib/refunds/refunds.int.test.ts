import { spawn } from "node:child_process";
import path from "node:path";
import {
  type Address,
  createWalletClient,
  erc20Abi,
  getAddress,
  type Hex,
  http,
  parseEther,
  parseUnits,
  zeroAddress,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { hardhat } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
import { createCheckoutSession } from "@/lib/checkout/create-checkout-session";
import { startPayment } from "@/lib/checkout/start-payment";
import { db } from "@/lib/db/client";
import { newId } from "@/lib/ids";
import { metrics } from "@/lib/metrics/metrics";
import { scanNetwork } from "@/lib/payments/scan-network";
import { sweeperKeysFromMnemonic } from "@/lib/sweeps/sweeper-keys";
import { bundledEntry } from "@/scripts/test-support/bundled-entry";
import { createTestInvoice, createTestOrganization, reportTestWallet } from "@/scripts/test-support/fixtures";
import { type AdvanceRefundsOptions, advanceRefunds } from "./advance-refunds";
import { claimRefund, claimRefundSchema } from "./claim-refund";
import { claimLinkLifetimeMs, claimTokenFor, hashClaimToken } from "./claim-token";
import { createRefund as createRefundAsked } from "./create-refund";
import { decideRefund } from "./decide-refund";
import { devnetRefundWalletFunds } from "./fund-devnet-refund-wallet";
import { getRefundWallets } from "./get-refund-wallets";
import { reportRefundWallets } from "./report-refund-wallets";

// A real Hardhat node (mining on transactions and when told), the real signer and its keys, real
// PostgreSQL; refunds are created as rows (the API builds them), balances read back from the chain.
// Each organization pays from its own refund wallet; the signer runs on `signerNetwork`, the devnet
// without its flag, so no wallet is topped up unless a test funds it (the top-up has its own test).
const root = path.resolve(import.meta.dirname, "../..");
const mnemonic =
  "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";
const keys = sweeperKeysFromMnemonic(mnemonic);
let devnet: Devnet;
let network: EvmNetworkConfig;
let signerNetwork: EvmNetworkConfig;
const { abi } = compileTestUsdc();

beforeAll(async () => {
  devnet = await startDevnet({ port: 9000 + Math.floor(Math.random() * 50), blockIntervalMs: 0 });
  const usdc = await deployTestUsdc(devnet.rpcUrl);
  const priceFeeds = await deployPriceFeeds(devnet.rpcUrl);
  network = devnetNetwork({ rpcUrl: devnet.rpcUrl, usdc, confirmations: 2, priceFeeds });
  process.env.SERVICE_NETWORKS = JSON.stringify([network]);
  process.env.SERVICE_HD_MNEMONIC = mnemonic;
  // Owners are told of refunds held for them through the development mailbox.
  process.env.SERVICE_DEV_MAILBOX = "true";
  signerNetwork = { ...network, devnet: false };
}, 120_000);
afterAll(async () => devnet?.stop());

const funder = () =>
  createWalletClient({ account: devnetFunder, chain: hardhat, transport: http(devnet.rpcUrl) });
const rpc = (method: string, params: unknown[] = []) =>
  devnet.client.request({ method: method as never, params: params as never });
const mine = (blocks = 1) => rpc("hardhat_mine", [`0x${blocks.toString(16)}`]);
const usdcAddress = () => network.tokens[0].address as Hex;

async function fund(to: string, eth: string) {
  const hash = await funder().sendTransaction({ to: to as Hex, value: parseEther(eth) });
  await devnet.client.waitForTransactionReceipt({ hash });
}

async function mint(to: string, amount: string) {
  const hash = await funder().writeContract({
    address: usdcAddress(),
    abi,
    functionName: "mint",
    args: [to, parseUnits(amount, 6)],
  });
  await devnet.client.waitForTransactionReceipt({ hash });
}

const usdcBalance = (address: string) =>
  devnet.client.readContract({
    address: usdcAddress(),
    abi: erc20Abi,
    functionName: "balanceOf",
    args: [address as Hex],
  });

const freshAddress = () => privateKeyToAccount(generatePrivateKey()).address;

const walletOf = (organization: { refundWalletIndex: number }) =>
  keys.refundWallet(organization.refundWalletIndex, network.chainId);

/** Funds the organization's refund wallet as its merchant would: coin for fees, and USDC. */
async function fundWallet(organization: { refundWalletIndex: number }, eth = "10", usdc = "10000") {
  await fund(walletOf(organization).address, eth);
  await mint(walletOf(organization).address, usdc);
}

/**
 * `from` pays `amount` of `token` to `to` on chain. Impersonated (Hardhat), so any address can be
 * the payer, as the signer reads it back: the USDC Transfer's log index, or -1 for a native one.
 */
async function payOnChain(from: string, to: string, token: string, amount: string) {
  await rpc("hardhat_setBalance", [from, `0x${parseEther("1").toString(16)}`]);
  if (token === "USDC") await mint(from, amount);
  await rpc("hardhat_impersonateAccount", [from]);
  const wallet = createWalletClient({
    account: from as Address,
    chain: hardhat,
    transport: http(devnet.rpcUrl),
  });
  const hash =
    token === "USDC"
      ? await wallet.writeContract({
          address: usdcAddress(),
          abi,
          functionName: "transfer",
          args: [to, parseUnits(amount, 6)],
        })
      : await wallet.sendTransaction({ to: to as Address, value: parseEther(amount) });
  const receipt = await devnet.client.waitForTransactionReceipt({ hash });
  await rpc("hardhat_stopImpersonatingAccount", [from]);
  const log = receipt.logs.find((entry) => entry.address.toLowerCase() === usdcAddress().toLowerCase());
  return { hash, logIndex: token === "USDC" ? (log?.logIndex ?? 0) : -1, receipt };
}

/**
 * A confirmed invoice of `amount` paid by `payer` on chain (the payment as the watcher records
 * it), of a new organization whose refund wallet is funded unless told otherwise.
 */
async function paidInvoice(amount: string, payer: string = freshAddress(), token = "USDC", funded = true) {
  const { organization } = await createTestOrganization();
  if (funded) await fundWallet(organization);
  const created = await createTestInvoice(organization.id, { amount, status: "CONFIRMED" });
  const depositAddress = freshAddress();
  const invoice = await db().invoice.update({
    where: { id: created.id },
    data: { token, amountPaid: amount, depositAddress },
  });
  const paid = await payOnChain(payer, depositAddress, token, amount);
  await db().payment.create({
    data: {
      id: newId("payment"),
      organizationId: organization.id,
      invoiceId: invoice.id,
      txHash: paid.hash,
      logIndex: paid.logIndex,
      amount,
      blockNumber: paid.receipt.blockNumber,
      blockHash: paid.receipt.blockHash,
      status: "CONFIRMED",
      fromAddress: payer,
    },
  });
  return { ...invoice, token, payer, organization };
}

type RefundInput = {
  amount: string;
  destination?: "PAYER" | "CLAIM" | "ADDRESS";
  toAddress?: string | null;
  requestedByKind?: string;
  claimedAt?: Date | null;
  claimEmail?: string | null;
  decidedByUserId?: string | null;
};

async function createRefund(
  invoice: Omit<Awaited<ReturnType<typeof paidInvoice>>, "organization">,
  input: RefundInput,
) {
  return db().refund.create({
    data: {
      id: newId("refund"),
      organizationId: invoice.organizationId,
      invoiceId: invoice.id,
      checkoutSessionId: invoice.checkoutSessionId,
      network: "devnet",
      token: invoice.token,
      amount: input.amount,
      amountUsd: input.amount,
      status: "PENDING",
      destination: input.destination ?? "PAYER",
      toAddress: input.toAddress === undefined ? invoice.payer : input.toAddress,
      claimedAt: input.claimedAt ?? null,
      claimEmail: input.claimEmail ?? null,
      decidedByUserId: input.decidedByUserId ?? null,
      requestedByKind: input.requestedByKind ?? "api_key",
      requestedByName: "Test key",
    },
  });
}

const pass = (options: Partial<AdvanceRefundsOptions> = {}) =>
  advanceRefunds(db(), signerNetwork, devnet.client, { keys, ...options });

/** Refund passes with a block mined after each, until the refunds are done. */
async function refundUntilSettled(ids: string[], options: Partial<AdvanceRefundsOptions> = {}) {
  for (let round = 0; round < 10; round++) {
    await pass(options);
    const open = await db().refund.count({
      where: { id: { in: ids }, status: { in: ["PENDING", "SUBMITTED"] } },
    });
    if (open === 0) break;
    await mine(1);
  }
  return db().refund.findMany({
    where: { id: { in: ids } },
    include: { transactions: true },
    orderBy: { createdAt: "asc" },
  });
}

const eventCount = (refundId: string, type: string) =>
  db().event.count({ where: { type, payload: { path: ["refund", "id"], equals: refundId } } });

/** ERC-20 Transfer events into `to` on the whole chain, mints (the payer's test USDC) aside. */
const transfersTo = async (to: string) =>
  (
    await devnet.client.getContractEvents({
      address: usdcAddress(),
      abi: erc20Abi,
      eventName: "Transfer",
      args: { to: to as Address },
      fromBlock: 0n,
    })
  ).filter((log) => log.args.from !== zeroAddress).length;

describe("refunds on a devnet", () => {
  it("refunds 16 of 40 USDC to the address that paid: the buyer's own wallet, read on chain", async () => {
    const buyer = privateKeyToAccount(generatePrivateKey());
    await fund(buyer.address, "1");
    await mint(buyer.address, "40");
    const { organization } = await createTestOrganization();
    await fundWallet(organization);
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
    const wallet = createWalletClient({ account: buyer, chain: hardhat, transport: http(devnet.rpcUrl) });
    await devnet.client.waitForTransactionReceipt({
      hash: await wallet.writeContract({
        address: usdcAddress(),
        abi,
        functionName: "transfer",
        args: [invoice.depositAddress, parseUnits("40", 6)],
      }),
    });
    await mine(2);
    await scanNetwork(db(), network, devnet.client);
    const payment = await db().payment.findFirstOrThrow({ where: { invoiceId: invoice.id } });
    expect(payment).toMatchObject({ status: "CONFIRMED", fromAddress: getAddress(buyer.address) });
    const refund = await createRefund(
      { ...invoice, token: "USDC", payer: payment.fromAddress as string },
      { amount: "16" },
    );

    const [done] = await refundUntilSettled([refund.id]);
    expect(done).toMatchObject({ status: "SUCCEEDED", failureReason: null, pendingReason: null });
    expect(done.submittedAt).not.toBeNull();
    expect(done.confirmedAt).not.toBeNull();
    expect(done.transactions).toHaveLength(1);
    expect(done.txHash).toBe(done.transactions[0].hash);
    expect(await usdcBalance(buyer.address)).toBe(parseUnits("16", 6));
    await pass();
    await mine(3);
    await pass();
    expect(await eventCount(refund.id, "refund.succeeded")).toBe(1);
    expect(await usdcBalance(buyer.address)).toBe(parseUnits("16", 6));
  });

  it("refunds native ETH to an address an owner named", async () => {
    const to = freshAddress();
    const invoice = await paidInvoice("0.05", freshAddress(), "ETH");
    const refund = await createRefund(invoice, {
      amount: "0.02",
      destination: "ADDRESS",
      toAddress: to,
      requestedByKind: "user",
    });
    const [done] = await refundUntilSettled([refund.id]);
    expect(done.status).toBe("SUCCEEDED");
    expect(await devnet.client.getBalance({ address: to })).toBe(parseEther("0.02"));
  });

  it("broadcasts the refund again once when its block is reorganised away, and succeeds once", async () => {
    const invoice = await paidInvoice("7");
    const refund = await createRefund(invoice, { amount: "7" });
    const snapshot = await rpc("evm_snapshot");
    await pass(); // signed and mined at once
    await pass(); // sees it mined, one confirmation
    const mined = await db().signedTransaction.findFirstOrThrow({ where: { refundId: refund.id } });
    expect(mined.blockHash).not.toBeNull();
    await rpc("evm_revert", [snapshot]);
    await mine(1);
    expect(await usdcBalance(invoice.payer)).toBe(0n);
    const [done] = await refundUntilSettled([refund.id]);
    expect(done).toMatchObject({ status: "SUCCEEDED", resubmissions: 1 });
    expect(done.transactions).toHaveLength(1);
    expect(await usdcBalance(invoice.payer)).toBe(parseUnits("7", 6));
    expect(await transfersTo(invoice.payer)).toBe(1);
    expect(await eventCount(refund.id, "refund.succeeded")).toBe(1);
  });

  it("replaces a stuck refund with a higher fee, and only one of them pays", async () => {
    const invoice = await paidInvoice("5");
    const refund = await createRefund(invoice, { amount: "5" });
    await rpc("evm_setAutomine", [false]);
    try {
      await pass();
      await pass({ now: new Date(Date.now() + 120_000), stuckAfterMs: 60_000 });
    } finally {
      await rpc("evm_setAutomine", [true]);
    }
    await mine(1);
    const [done] = await refundUntilSettled([refund.id]);
    expect(done.status).toBe("SUCCEEDED");
    expect(done.transactions).toHaveLength(2);
    const [first, second] = [...done.transactions].sort(
      (a, b) => a.createdAt.getTime() - b.createdAt.getTime(),
    );
    expect(second.nonce).toBe(first.nonce);
    expect(first.replacedAt).not.toBeNull();
    expect(BigInt(second.maxFeePerGas.toFixed())).toBeGreaterThan(BigInt(first.maxFeePerGas.toFixed()));
    expect(done.txHash).toBe(second.blockHash ? second.hash : first.hash);
    expect(await transfersTo(invoice.payer)).toBe(1);
    expect(await usdcBalance(invoice.payer)).toBe(parseUnits("5", 6));
  });

  it("after a SIGKILL between recording and broadcasting, the next pass sends the recorded transfer once", async () => {
    const invoice = await paidInvoice("9");
    const refund = await createRefund(invoice, { amount: "9" });
    const child = spawn(process.execPath, [await bundledEntry("scripts/test-support/refund-pass.ts")], {
      cwd: root,
      stdio: "ignore",
      env: { ...process.env, LOG_LEVEL: "silent" },
    });
    const [code, signal] = await new Promise<[number | null, string | null]>((resolve) =>
      child.once("exit", (exitCode, exitSignal) => resolve([exitCode, exitSignal])),
    );
    // Killed, or failed some other way: either way the pass never finished.
    expect(signal === "SIGKILL" || code !== 0).toBe(true);
    const recorded = await db().refund.findUniqueOrThrow({
      where: { id: refund.id },
      include: { transactions: true },
    });
    expect(recorded.status).toBe("SUBMITTED");
    expect(recorded.transactions).toHaveLength(1);
    expect(await usdcBalance(invoice.payer)).toBe(0n);

    const [done] = await refundUntilSettled([refund.id]);
    expect(done.status).toBe("SUCCEEDED");
    expect(done.transactions).toHaveLength(1);
    expect(done.transactions[0].hash).toBe(recorded.transactions[0].hash);
    expect(await transfersTo(invoice.payer)).toBe(1);
    expect(await usdcBalance(invoice.payer)).toBe(parseUnits("9", 6));
    expect(await eventCount(refund.id, "refund.succeeded")).toBe(1);
  }, 120_000);
});

describe("each organization's refund wallet", () => {
  const report = () => reportRefundWallets(db(), signerNetwork, devnet.client, keys);

  it("keeps refunds pending with the reason while unfunded, and never lets queued ones exceed its balance", async () => {
    const invoice = await paidInvoice("40", freshAddress(), "USDC", false);
    const poor = walletOf(invoice.organization);
    const first = await createRefund(invoice, { amount: "16" });
    const second = await createRefund(invoice, { amount: "16" });
    const third = await createRefund(invoice, { amount: "8" });
    const ids = [first.id, second.id, third.id];
    const statuses = async () =>
      (await db().refund.findMany({ where: { id: { in: ids } }, orderBy: { createdAt: "asc" } })).map(
        (refund) => [refund.status, refund.pendingReason],
      );

    await pass();
    expect(await statuses()).toEqual([
      ["PENDING", `The refund wallet ${poor.address} holds 0 USDC; this refund needs 16 USDC.`],
      ["PENDING", `Queued behind an earlier refund that the refund wallet ${poor.address} cannot pay yet.`],
      ["PENDING", `Queued behind an earlier refund that the refund wallet ${poor.address} cannot pay yet.`],
    ]);
    await report();
    expect(await getRefundWallets(db(), invoice.organizationId)).toMatchObject([
      {
        network: "devnet",
        address: poor.address,
        low: true,
        paysFees: true,
        balances: [
          { unit: "ETH", amount: "0" },
          { unit: "USDC", amount: "0" },
        ],
        queued: [{ unit: "USDC", amount: "40" }],
      },
    ]);

    // Tokens but no coin for the fee: still waiting, now for the coin.
    await mint(poor.address, "20");
    await pass();
    const [[, coinReason]] = await statuses();
    expect(coinReason).toMatch(
      new RegExp(`^The refund wallet ${poor.address} holds 0 ETH; this refund needs .+ ETH for its fee\\.$`),
    );

    // 20 USDC and coin: the first goes out; the second (16 more) would exceed what is left.
    await fund(poor.address, "1");
    await pass();
    expect((await statuses()).map(([status]) => status)).toEqual(["SUBMITTED", "PENDING", "PENDING"]);
    expect((await statuses())[1][1]).toBe(
      `The refund wallet ${poor.address} holds 4 USDC; this refund needs 16 USDC.`,
    );

    await mint(poor.address, "20");
    const done = await refundUntilSettled(ids);
    expect(done.map((refund) => refund.status)).toEqual(["SUCCEEDED", "SUCCEEDED", "SUCCEEDED"]);
    expect(done.map((refund) => refund.pendingReason)).toEqual([null, null, null]);
    expect(await usdcBalance(invoice.payer)).toBe(parseUnits("40", 6));
    expect(await usdcBalance(poor.address)).toBe(0n);
    await report();
    expect(await getRefundWallets(db(), invoice.organizationId)).toMatchObject([
      { address: poor.address, low: false, queued: [] },
    ]);
  });

  it("pays one organization's refunds from its own wallet only: B's waits on B's empty wallet while A's goes out", async () => {
    const a = await paidInvoice("10");
    const b = await paidInvoice("10", freshAddress(), "USDC", false);
    const [walletA, walletB] = [walletOf(a.organization), walletOf(b.organization)];
    expect(walletA.address).not.toBe(walletB.address);
    const refundB = await createRefund(b, { amount: "6" });
    const refundA = await createRefund(a, { amount: "4" });

    const [doneA] = await refundUntilSettled([refundA.id]);
    expect(doneA.status).toBe("SUCCEEDED");
    expect(await usdcBalance(a.payer)).toBe(parseUnits("4", 6));
    const waiting = await db().refund.findUniqueOrThrow({
      where: { id: refundB.id },
      include: { transactions: true },
    });
    expect(waiting).toMatchObject({
      status: "PENDING",
      pendingReason: `The refund wallet ${walletB.address} holds 0 USDC; this refund needs 6 USDC.`,
      transactions: [],
    });
    // A's wallet paid A's refund and nothing else; B's payer got nothing from it.
    expect(await usdcBalance(walletA.address)).toBe(parseUnits("9996", 6));
    expect(await usdcBalance(b.payer)).toBe(0n);
    await report();
    expect(await getRefundWallets(db(), b.organizationId)).toMatchObject([
      { address: walletB.address, low: true, queued: [{ unit: "USDC", amount: "6" }] },
    ]);
    expect(await getRefundWallets(db(), a.organizationId)).toMatchObject([
      { address: walletA.address, low: false, queued: [] },
    ]);

    // Once B's merchant funds B's wallet, B's refund goes out from it.
    await fundWallet(b.organization, "1", "6");
    const [doneB] = await refundUntilSettled([refundB.id]);
    expect(doneB.status).toBe("SUCCEEDED");
    expect(await usdcBalance(b.payer)).toBe(parseUnits("6", 6));
    expect(await usdcBalance(walletB.address)).toBe(0n);
    expect(await usdcBalance(walletA.address)).toBe(parseUnits("9996", 6));
  });

  it("shows the wallet to fund before the first refund to an organization with a settlement wallet", async () => {
    const { organization } = await createTestOrganization();
    await db().settlementWallet.create({
      data: {
        id: newId("settlementWallet"),
        organizationId: organization.id,
        network: "devnet",
        address: freshAddress(),
      },
    });
    await report();
    expect(await getRefundWallets(db(), organization.id)).toMatchObject([
      {
        network: "devnet",
        address: walletOf(organization).address,
        low: false,
        balances: [
          { unit: "ETH", amount: "0" },
          { unit: "USDC", amount: "0" },
        ],
        queued: [],
      },
    ]);
  });

  it("on the local devnet, funds an empty refund wallet with test funds so a new merchant's refund goes out", async () => {
    const invoice = await paidInvoice("5", freshAddress(), "USDC", false);
    const wallet = walletOf(invoice.organization).address;
    const refund = await createRefund(invoice, { amount: "5" });
    for (let round = 0; round < 10; round++) {
      await advanceRefunds(db(), network, devnet.client, { keys });
      if ((await db().refund.findUniqueOrThrow({ where: { id: refund.id } })).status === "SUCCEEDED") break;
      await mine(1);
    }
    expect(await db().refund.findUniqueOrThrow({ where: { id: refund.id } })).toMatchObject({
      status: "SUCCEEDED",
      pendingReason: null,
    });
    expect(await usdcBalance(invoice.payer)).toBe(parseUnits("5", 6));
    expect(await usdcBalance(wallet)).toBe(parseUnits(devnetRefundWalletFunds.token, 6) - parseUnits("5", 6));
    expect(await devnet.client.getBalance({ address: wallet })).toBeGreaterThan(parseEther("99"));
  });
});

describe("where refunds may go", () => {
  const payer = freshAddress();
  const other = freshAddress();
  // The refund (its invoice paid 40 USDC by `payer`) → the reason the signer refuses it.
  const refusals: [string, RefundInput, string][] = [
    ["to someone who did not pay", { amount: "1", toAddress: other }, "not_the_payer"],
    ["to the zero address (payer unknown)", { amount: "1", toAddress: zeroAddress }, "no_destination"],
    ["a claim nobody claimed", { amount: "1", destination: "CLAIM", toAddress: other }, "not_claimed"],
    [
      "a claim an API key asked for, claimed with no emailed code, no owner decided",
      {
        amount: "1",
        destination: "CLAIM",
        toAddress: other,
        claimedAt: new Date(),
        requestedByKind: "api_key",
      },
      "claim_not_decided_by_owner",
    ],
    [
      "a claim an agent asked for, claimed with no emailed code, no owner decided",
      {
        amount: "1",
        destination: "CLAIM",
        toAddress: other,
        claimedAt: new Date(),
        requestedByKind: "agent_credential",
      },
      "claim_not_decided_by_owner",
    ],
    [
      "an address an agent named, no owner decided",
      { amount: "1", destination: "ADDRESS", toAddress: other, requestedByKind: "agent_credential" },
      "address_not_decided_by_owner",
    ],
    [
      "an address an API key named, no owner decided",
      { amount: "1", destination: "ADDRESS", toAddress: other, requestedByKind: "api_key" },
      "address_not_decided_by_owner",
    ],
    ["more than was paid", { amount: "41" }, "exceeds_payment"],
  ];

  it.each(refusals)(
    "refuses a refund %s: failed with the reason, refund.failed once, nothing sent",
    async (_, input, reason) => {
      const invoice = await paidInvoice("40", payer);
      const refund = await createRefund(invoice, input);
      const refused = () =>
        metrics()
          .refundsRefused.get()
          .then((metric) => metric.values.find((value) => value.labels.reason === reason)?.value ?? 0);
      const before = await refused();
      await pass();
      await pass();
      const failed = await db().refund.findUniqueOrThrow({
        where: { id: refund.id },
        include: { transactions: true },
      });
      expect(failed.status).toBe("FAILED");
      expect(failed.failureReason).toMatch(/^Refused/);
      expect(failed.transactions).toHaveLength(0);
      expect(await eventCount(refund.id, "refund.failed")).toBe(1);
      expect(await refused()).toBe(before + 1);
      expect(await usdcBalance(input.toAddress ?? payer)).toBe(0n);
    },
  );

  // The service's own wallet an owner named (or a buyer claimed) → a refund there must not be sent:
  // it would come back as a payment of that address's invoice (lib/refunds/check-refund-not-service-wallet.ts).
  const ownWallets: [string, (organizationId: string) => Promise<string>][] = [
    ["another organization's invoice's deposit address", async () => (await paidInvoice("1")).depositAddress],
    [
      "its own refund wallet",
      async (organizationId) => {
        const { refundWalletIndex } = await db().organization.findUniqueOrThrow({
          where: { id: organizationId },
        });
        return keys.refundWallet(refundWalletIndex, network.chainId).address;
      },
    ],
  ];

  it.each(ownWallets)(
    "refuses an owner's refund to %s: failed with the reason, nothing sent",
    async (_, own) => {
      const invoice = await paidInvoice("40", payer);
      const to = await own(invoice.organizationId);
      const before = await usdcBalance(to);
      const refund = await createRefund(invoice, {
        amount: "5",
        destination: "ADDRESS",
        toAddress: to,
        requestedByKind: "user",
      });
      await pass();
      await mine(1);
      await pass();
      const failed = await db().refund.findUniqueOrThrow({
        where: { id: refund.id },
        include: { transactions: true },
      });
      expect(failed.status).toBe("FAILED");
      expect(failed.failureReason).toMatch(/^Refused to pay .*: it is this service's own/);
      expect(failed.transactions).toHaveLength(0);
      expect(await usdcBalance(to)).toBe(before);
    },
  );

  // As the web tier knows them: rows and the configuration (lib/wallets/find-service-wallet.ts).
  const knownWallets: [string, () => Promise<string>][] = [
    ["another organization's invoice's deposit address", async () => (await paidInvoice("1")).depositAddress],
    ["a gas wallet the signer reported", () => reportTestWallet("gasWallet", freshAddress())],
  ];

  it.each(knownWallets)(
    "refuses a refund asked for to %s: 400 address_is_service_wallet, nothing created",
    async (_, own) => {
      const invoice = await paidInvoice("40", payer);
      const to = await own();
      await expect(
        createRefundAsked(db(), {
          organizationId: invoice.organizationId,
          request: { invoiceId: invoice.id, amount: "5", destination: to },
          requestedBy: { kind: "user", name: "Owner", decision: "allow" },
          idempotency: null,
        }),
      ).rejects.toMatchObject({ code: "address_is_service_wallet", param: "destination" });
      expect(await db().refund.count({ where: { invoiceId: invoice.id } })).toBe(0);
    },
  );

  it.each(knownWallets)(
    "refuses %s typed on a claim page: 400 address_is_service_wallet, the claim stays open",
    async (_, own) => {
      const invoice = await paidInvoice("40", payer);
      const claimExpiresAt = new Date(Date.now() + claimLinkLifetimeMs);
      const refund = await db().refund.update({
        where: {
          id: (await createRefund(invoice, { amount: "5", destination: "CLAIM", toAddress: null })).id,
        },
        data: { status: "PENDING_CLAIM", requestedByKind: "user", claimExpiresAt },
      });
      const token = claimTokenFor(refund.id, claimExpiresAt);
      await db().refund.update({ where: { id: refund.id }, data: { claimTokenHash: hashClaimToken(token) } });
      const to = await own();
      await expect(
        claimRefund(db(), claimRefundSchema.parse({ token, address: to, confirmAddress: to })),
      ).rejects.toMatchObject({ code: "address_is_service_wallet", param: "address" });
      expect(await db().refund.findUniqueOrThrow({ where: { id: refund.id } })).toMatchObject({
        status: "PENDING_CLAIM",
        toAddress: null,
      });
    },
  );

  it("refuses a payer refund whose payment row names an address the chain does not show", async () => {
    const invoice = await paidInvoice("40", payer);
    // The row is changed (a bug, or someone with the database): it now says `other` paid.
    await db().payment.updateMany({ where: { invoiceId: invoice.id }, data: { fromAddress: other } });
    const refund = await createRefund(invoice, { amount: "10", toAddress: other });
    await pass();
    const failed = await db().refund.findUniqueOrThrow({
      where: { id: refund.id },
      include: { transactions: true },
    });
    expect(failed).toMatchObject({ status: "FAILED" });
    expect(failed.failureReason).toMatch(/^Refused to pay .*: no transfer from it to the invoice's address/);
    expect(failed.transactions).toHaveLength(0);
    expect(await usdcBalance(other)).toBe(0n);
    // A transaction that is not on chain at all is refused the same way.
    const ghost = await paidInvoice("40", payer);
    await db().payment.updateMany({
      where: { invoiceId: ghost.id },
      data: { txHash: `0x${"ab".repeat(32)}` },
    });
    const missing = await createRefund(ghost, { amount: "10" });
    await pass();
    expect(await db().refund.findUniqueOrThrow({ where: { id: missing.id } })).toMatchObject({
      status: "FAILED",
    });
    expect(await usdcBalance(payer)).toBe(0n);
  });

  it("holds an API key's refund to an address it names for an owner: nothing is sent until one confirms", async () => {
    const invoice = await paidInvoice("40", payer);
    const to = freshAddress();
    const { refund } = await createRefundAsked(db(), {
      organizationId: invoice.organizationId,
      request: { invoiceId: invoice.id, amount: "9", destination: to },
      requestedBy: { kind: "api_key", name: "Stolen key", decision: "allow" },
      idempotency: null,
    });
    expect(refund?.status).toBe("REQUIRES_APPROVAL");
    for (let round = 0; round < 3; round++) {
      await pass();
      await mine(1);
    }
    expect(await usdcBalance(to)).toBe(0n);
    expect(await db().refund.findUniqueOrThrow({ where: { id: refund?.id } })).toMatchObject({
      status: "REQUIRES_APPROVAL",
      txHash: null,
    });
    const owner = await db().membership.findFirstOrThrow({
      where: { organizationId: invoice.organizationId, role: "OWNER" },
    });
    await decideRefund(db(), invoice.organizationId, {
      id: refund?.id as string,
      userId: owner.userId,
      decision: "confirm",
    });
    const [done] = await refundUntilSettled([refund?.id as string]);
    expect(done.status).toBe("SUCCEEDED");
    expect(await usdcBalance(to)).toBe(parseUnits("9", 6));
  });

  it("sends claims an owner asked for, proven by the emailed code, or an owner decided, and an owner-confirmed agent's address", async () => {
    const invoice = await paidInvoice("40", payer);
    const claimTo = freshAddress();
    const decidedTo = freshAddress();
    const claimed = { destination: "CLAIM", claimedAt: new Date() } as const;
    const claim = await createRefund(invoice, {
      ...claimed,
      amount: "3",
      toAddress: claimTo,
      requestedByKind: "user",
    });
    const provenTo = freshAddress();
    const proven = await createRefund(invoice, {
      ...claimed,
      amount: "1",
      toAddress: provenTo,
      claimEmail: "buyer@example.com",
    });
    const ownerTo = freshAddress();
    const ownerDecided = await createRefund(invoice, {
      ...claimed,
      amount: "2",
      toAddress: ownerTo,
      decidedByUserId: "usr_owner",
    });
    const decided = await createRefund(invoice, {
      amount: "4",
      destination: "ADDRESS",
      toAddress: decidedTo,
      requestedByKind: "agent_credential",
      decidedByUserId: "usr_owner",
    });
    const done = await refundUntilSettled([claim.id, decided.id, proven.id, ownerDecided.id]);
    expect(done.map((refund) => refund.status)).toEqual(["SUCCEEDED", "SUCCEEDED", "SUCCEEDED", "SUCCEEDED"]);
    expect(await usdcBalance(claimTo)).toBe(parseUnits("3", 6));
    expect(await usdcBalance(provenTo)).toBe(parseUnits("1", 6));
    expect(await usdcBalance(ownerTo)).toBe(parseUnits("2", 6));
    expect(await usdcBalance(decidedTo)).toBe(parseUnits("4", 6));
  });
});

describe("automatic overpayment refunds to a contract", () => {
  // The payer's code at refund time (set on chain after it paid) and who asked → where the refund
  // ends after the signer's passes. A contract's code here is the test USDC's own bytecode.
  const delegated = `0xef0100${"ab".repeat(20)}`;
  const cases: [string, "none" | "contract" | "delegated", string, "SUCCEEDED" | "REQUIRES_APPROVAL"][] = [
    ["an EOA payer, automatic: paid", "none", "automatic", "SUCCEEDED"],
    ["a contract payer, automatic: held for an owner", "contract", "automatic", "REQUIRES_APPROVAL"],
    [
      "an EIP-7702 delegated EOA, automatic: paid (its key still rules it)",
      "delegated",
      "automatic",
      "SUCCEEDED",
    ],
    ["a contract payer, an API key's own refund: paid as asked", "contract", "api_key", "SUCCEEDED"],
  ];

  it.each(cases)("%s", async (_name, code, requestedByKind, expected) => {
    const payer = freshAddress();
    const invoice = await paidInvoice("40", payer);
    if (code !== "none") {
      const bytecode =
        code === "contract" ? await devnet.client.getCode({ address: usdcAddress() }) : delegated;
      await rpc("hardhat_setCode", [payer, bytecode]);
    }
    const refund = await createRefund(invoice, { amount: "2", requestedByKind });
    const [done] = await refundUntilSettled([refund.id]);
    expect(done.status).toBe(expected);
    const owner = await db().membership.findFirstOrThrow({
      where: { organizationId: invoice.organizationId, role: "OWNER" },
      include: { user: true },
    });
    const emails = await db().devEmail.findMany({ where: { to: owner.user.email } });
    if (expected === "SUCCEEDED") {
      expect(await usdcBalance(payer)).toBe(parseUnits("2", 6));
      expect(emails).toHaveLength(0);
      return;
    }
    expect(done.transactions).toHaveLength(0);
    expect(done.pendingReason).toMatch(/is a contract/);
    expect(await usdcBalance(payer)).toBe(0n);
    expect(emails).toHaveLength(1);
    expect(emails[0].subject).toMatch(/^Confirm or reject: refund of 2 USDC/);
    expect(emails[0].text).toContain(`/dashboard/refunds/${refund.id}`);
    expect(emails[0].text).toMatch(/Held because: The payer .* is a contract/);
    // Held, it stays held: later passes neither send it nor tell the owners again.
    await pass();
    expect(await db().devEmail.count({ where: { to: owner.user.email } })).toBe(1);
    // An owner confirms: the signer then pays the contract, as the owner decided.
    await decideRefund(db(), invoice.organizationId, {
      id: refund.id,
      userId: owner.userId,
      decision: "confirm",
    });
    const [confirmed] = await refundUntilSettled([refund.id]);
    expect(confirmed).toMatchObject({ status: "SUCCEEDED", pendingReason: null });
    expect(await usdcBalance(payer)).toBe(parseUnits("2", 6));
  });
});
