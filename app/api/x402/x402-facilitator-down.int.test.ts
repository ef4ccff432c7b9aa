// x402 with the facilitator over HTTP (SERVICE_X402_FACILITATOR_URL) going down: before verifying,
// between a good verification and the settlement, or after the settlement's transaction was sent;
// and an external facilitator (one that records nothing here) answering a refusal after it sent.
// Nothing unpaid is marked paid, and a payment whose transfer may still land is never refused (the
// agent would pay again): it stays pending until the chain decides it.
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from "@x402/core/http";
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { erc20Abi, type Hex, parseAbi, parseUnits } from "viem";
import { english, generateMnemonic } from "viem/accounts";
import { hardhat } from "viem/chains";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { sweeperKeysFromMnemonic } from "@/lib/sweeps/sweeper-keys";
import { resolveStuckX402Settlements } from "@/lib/x402/resolve-stuck-x402-settlements";
import { hardhatMnemonic, startTestDevnet, type TestDevnet } from "@/scripts/test-support/test-devnet";
import { sendX402Payment, serveX402App, type X402App, x402Agent } from "@/scripts/test-support/x402-app";
import {
  aheadOfSettlement,
  externalFacilitator,
  minesAfterEach,
  serveJson,
  settleAgain,
  settlementAwaitingMining,
  settleOverHttp,
  signedPayment,
  signingRoleFacilitator,
  untilPending,
} from "@/scripts/test-support/x402-facilitator-stub";

settleOverHttp();

let devnet: TestDevnet;
let app: X402App;
let facilitator: Awaited<ReturnType<typeof serveJson>>;
/**
 * Which of the facilitator's endpoints answer; the others drop the connection. `lost`: the
 * settlement is made, and its answer lost. `misreported`: the settlement is made, and answered as
 * failed (a receipt it could not read, say). `refused`: the facilitator refuses it, nothing sent.
 * `cut`: the connection drops once the settlement's transaction is on the node (the web tier's
 * timeout). `sendFails`: the node takes the transaction, and the facilitator's send errs.
 * `sentThenRefused`: an external facilitator (its own wallet, recording nothing on our rows)
 * broadcasts the transfer, then answers a failure without a transaction.
 */
let up: {
  verify: boolean;
  settle: boolean | "lost" | "misreported" | "refused" | "cut" | "sendFails" | "sentThenRefused";
} = { verify: true, settle: true };
/** The payment and requirements the facilitator was last asked to settle. */
let settledWith: PaymentRequirements | undefined;
let settledPayload: PaymentPayload | undefined;
/** How many settle requests the facilitator server took. */
let settleRequests = 0;
/** The external facilitator's key: not this service's. */
const externalMnemonic = generateMnemonic(english);
/** A JSON-RPC proxy in front of the devnet whose eth_sendRawTransaction errs after the node took it. */
let failingSends: Awaited<ReturnType<typeof serveJson>>;

const facilitatorWallet = () =>
  sweeperKeysFromMnemonic(hardhatMnemonic).facilitatorWallet(devnet.network.chainId).address;

/** The hashes of the transactions the node holds unmined. */
const pendingTransactions = async () => (await devnet.pendingTransactions()).map(({ hash }) => hash);

beforeAll(async () => {
  devnet = await startTestDevnet({ confirmations: 1 });
  // Its gas up front, so no top-up waits on a block while a test holds mining off.
  await devnet.sendEth(facilitatorWallet(), "100");
  await devnet.sendEth(
    sweeperKeysFromMnemonic(externalMnemonic).facilitatorWallet(devnet.network.chainId).address,
    "100",
  );
  failingSends = await serveJson<{ id: unknown; method: string }>(async (_path, call) => {
    // The node takes every call; a transaction's sender is told it failed.
    const upstream = await fetch(devnet.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(call),
    });
    return call.method === "eth_sendRawTransaction"
      ? { jsonrpc: "2.0", id: call.id, error: { code: -32000, message: "request timed out" } }
      : upstream.json();
  });
  // A facilitator server in front of the real one (the signing role's), whose endpoints go down.
  const real = signingRoleFacilitator(devnet.network);
  const failing = signingRoleFacilitator({ ...devnet.network, rpcUrl: failingSends.url });
  const external = externalFacilitator(devnet.network, externalMnemonic);
  type Request = { paymentPayload: PaymentPayload; paymentRequirements: PaymentRequirements };
  facilitator = await serveJson<Request>(async (path, { paymentPayload, paymentRequirements }) => {
    const operation = path === "/verify" ? "verify" : path === "/settle" ? "settle" : undefined;
    const mode = operation && up[operation];
    if (!operation || !mode) return undefined;
    if (operation === "settle") {
      settleRequests++;
      settledWith = paymentRequirements;
      settledPayload = paymentPayload;
    }
    const refuse = (errorReason: string) => ({
      success: false,
      errorReason,
      transaction: "",
      network: paymentRequirements.network,
    });
    if (operation === "settle" && mode === "refused") return refuse("insufficient_funds");
    if (operation === "settle" && mode === "sentThenRefused") {
      external.settle(paymentPayload, paymentRequirements).catch(() => undefined);
      await untilPending(devnet);
      return refuse("transaction_failed");
    }
    const answering = (mode === "sendFails" ? failing : real)[operation](paymentPayload, paymentRequirements);
    if (mode === "cut") {
      answering.catch(() => undefined);
      await untilPending(devnet);
      return undefined;
    }
    const answer = await answering;
    if (mode === "lost") return undefined;
    return mode === "misreported"
      ? {
          ...answer,
          success: false,
          errorReason: "transaction_failed",
          errorMessage: "Docs: https://viem.sh",
        }
      : answer;
  });
  process.env.SERVICE_X402_FACILITATOR_URL = facilitator.url;
  app = await serveX402App();
}, 120_000);
minesAfterEach(() => devnet);
afterAll(async () => {
  await app?.close();
  await facilitator?.close();
  await failingSends?.close();
  await devnet?.stop();
});

const agent = () => x402Agent(devnet, "10");

/** A paylink's payment whose settlement waits in the node's pool, from our facilitator. */
async function settlementAwaitingBlock() {
  up = { verify: true, settle: true };
  return settlementAwaitingMining(devnet, app);
}

describe("the facilitator goes down", () => {
  it("before verifying: 503 service_unavailable with Retry-After (an outage, not a refusal to sign again); no session, no invoice, nothing moved", async () => {
    up = { verify: false, settle: false };
    const { organization, url } = await app.paylink("2.00");
    const organizationId = organization.id;
    const { account, pay } = await agent();
    const response = await pay(url);
    expect(response.status).toBe(503);
    expect((await response.json()).error.code).toBe("service_unavailable");
    expect(Number(response.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await db().checkoutSession.count({ where: { organizationId } })).toBe(0);
    expect(await db().invoice.count({ where: { organizationId } })).toBe(0);
    expect(await devnet.usdcBalance(account.address)).toBe(parseUnits("10", 6));
  });

  it("after verifying, the settle call lost before an answer: 503 settlement_pending, the invoice kept; the same payment then settles once", async () => {
    up = { verify: true, settle: false };
    const { organization, url } = await app.paylink("2.00");
    const organizationId = organization.id;
    const { account, client } = await agent();
    const send = await signedPayment(url, client);
    const response = await send();
    // The request may have reached the facilitator: a 402 would have the agent pay twice.
    expect(response.status).toBe(503);
    expect(response.headers.get("Retry-After")).toBe("5");
    expect((await response.json()).error.code).toBe("settlement_pending");

    const invoice = await db().invoice.findFirstOrThrow({
      where: { organizationId },
      include: { checkoutSession: true, x402Settlements: true },
    });
    expect(invoice.status).toBe("AWAITING_PAYMENT");
    expect(invoice.checkoutSession.status).not.toBe("EXPIRED");
    expect(invoice.x402Settlements).toMatchObject([{ status: "SETTLING", transaction: null }]);
    expect(await devnet.usdcBalance(account.address)).toBe(parseUnits("10", 6));

    // Back up: the same authorization, sent again, is settled (nothing was sent the first time).
    up = { verify: true, settle: true };
    const replay = await send();
    expect(replay.status).toBe(200);
    expect(await devnet.usdcBalance(account.address)).toBe(parseUnits("8", 6));
    expect(await devnet.usdcBalance(invoice.depositAddress)).toBe(parseUnits("2", 6));
    expect(await db().x402Settlement.findFirstOrThrow({ where: { invoiceId: invoice.id } })).toMatchObject({
      status: "SETTLED",
      transaction: (await replay.json()).transaction,
    });
  });

  it("refused over HTTP with nothing sent: 503 and SETTLING (it may have sent), never FAILED while the authorization can land; past its window, 402 settlement_expired and a paylink's invoice withdrawn", async () => {
    up = { verify: true, settle: "refused" };
    const { organization, url } = await app.paylink("2.00");
    const { account, client } = await agent();
    const send = await signedPayment(url, client);
    const response = await send();
    expect(response.status).toBe(503);
    expect(response.headers.get("Retry-After")).toBe("5");
    expect((await response.json()).error.code).toBe("settlement_pending");
    const invoice = await db().invoice.findFirstOrThrow({
      where: { organizationId: organization.id },
      include: { checkoutSession: true, x402Settlements: true },
    });
    expect(invoice.status).toBe("AWAITING_PAYMENT");
    expect(invoice.checkoutSession.status).not.toBe("EXPIRED");
    expect(invoice.x402Settlements).toMatchObject([
      { status: "SETTLING", transaction: null, errorReason: null },
    ]);
    // Refused again: still the chain's to decide.
    expect((await send()).status).toBe(503);

    // The chain past the authorization's window (with the margin), it still unused: it can never land.
    await devnet.mine(1);
    await db().$executeRaw`
      UPDATE "X402Settlement" SET "validBefore" = now() - interval '10 minutes' WHERE "invoiceId" = ${invoice.id}`;
    const expired = await send();
    expect(expired.status).toBe(402);
    expect((await expired.json()).error.code).toBe("settlement_expired");
    expect(decodePaymentResponseHeader(expired.headers.get("PAYMENT-RESPONSE") as string)).toMatchObject({
      success: false,
      errorReason: "settlement_expired",
      payer: account.address,
    });
    const withdrawn = await db().invoice.findUniqueOrThrow({
      where: { id: invoice.id },
      include: { checkoutSession: true, x402Settlements: true },
    });
    expect(withdrawn.status).toBe("OVERDUE");
    expect(withdrawn.checkoutSession.status).toBe("EXPIRED");
    expect(withdrawn.x402Settlements).toMatchObject([
      { status: "FAILED", errorReason: "settlement_expired" },
    ]);

    up = { verify: true, settle: true };
    const replay = await send();
    expect(replay.status).toBe(402);
    expect((await replay.json()).error.code).toBe("settlement_expired");
    expect(await devnet.usdcBalance(account.address)).toBe(parseUnits("10", 6));
  });

  it("refused over HTTP, the same payment settles once the facilitator takes it: a refusal burns nothing", async () => {
    up = { verify: true, settle: "refused" };
    const created = await app.session("2.00");
    const { account, client } = await agent();
    const send = await signedPayment(created.url, client);
    expect((await send()).status).toBe(503);
    const invoice = await db().invoice.findUniqueOrThrow({ where: { checkoutSessionId: created.id } });
    expect(invoice.status).toBe("AWAITING_PAYMENT");

    up = { verify: true, settle: true };
    expect((await send()).status).toBe(200);
    expect(await devnet.usdcBalance(invoice.depositAddress)).toBe(parseUnits("2", 6));
    expect(await devnet.usdcBalance(account.address)).toBe(parseUnits("8", 6));
  });

  it.each([
    {
      facilitator: "the built-in one, which records its broadcasts",
      recordsBroadcasts: true,
      status: "FAILED",
      errorReason: "insufficient_funds",
    },
    {
      facilitator: "one over HTTP, which may have sent",
      recordsBroadcasts: false,
      status: "SETTLING",
      errorReason: null,
    },
  ])(
    "a refusal with nothing sent or recorded, from $facilitator: $status",
    async ({ recordsBroadcasts, status, errorReason }) => {
      up = { verify: true, settle: "refused" };
      const created = await app.session("2.00");
      const { client } = await agent();
      expect((await (await signedPayment(created.url, client))()).status).toBe(503);
      const row = await db().x402Settlement.findFirstOrThrow({
        where: { invoice: { checkoutSessionId: created.id } },
      });
      const decided = await settleAgain(
        row,
        { payload: settledPayload as PaymentPayload, requirements: settledWith as PaymentRequirements },
        recordsBroadcasts,
      );
      expect(decided).toMatchObject({ status, errorReason, transaction: null });
    },
  );

  it("settles with our own requirements and the parsed payment: the agent's `extra` and unknown fields are compared or dropped, never forwarded", async () => {
    up = { verify: true, settle: true };
    const { url } = await app.paylink("2.00");
    const { account, client } = await agent();
    const quote = await fetch(url);
    const paymentRequired = decodePaymentRequiredHeader(quote.headers.get("PAYMENT-REQUIRED") as string);
    const payment = await client.createPaymentPayload(paymentRequired);
    const renamed = {
      ...payment,
      accepted: { ...payment.accepted, extra: { ...payment.accepted.extra, name: "Another Coin" } },
    };
    const refused = await sendX402Payment(url, renamed);
    expect(refused.status).toBe(402);
    expect((await refused.json()).error.code).toBe("requirements_mismatch");

    const padded = {
      ...payment,
      accepted: { ...payment.accepted, extra: { ...payment.accepted.extra, assetTransferMethod: "permit2" } },
      payload: {
        ...payment.payload,
        authorization: { ...(payment.payload.authorization as object), note: "unsigned" },
      },
      extensions: { unsigned: true },
    };
    expect((await sendX402Payment(url, padded)).status).toBe(200);
    expect(settledWith?.extra).toEqual(paymentRequired.accepts[0]?.extra);
    expect(settledPayload?.payload).toEqual(payment.payload);
    expect(settledPayload?.extensions).toBeUndefined();
    expect(settledPayload?.accepted.extra).toEqual(paymentRequired.accepts[0]?.extra);
    expect(await devnet.usdcBalance(account.address)).toBe(parseUnits("8", 6));
  });

  it("a settlement reported failed is FAILED only after the chain is read: it landed, so 200 and SETTLED", async () => {
    up = { verify: true, settle: "misreported" };
    const { organization, url } = await app.paylink("2.00");
    const { account, pay } = await agent();
    const response = await pay(url);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    const invoice = await db().invoice.findFirstOrThrow({
      where: { organizationId: organization.id },
      include: { x402Settlements: true },
    });
    expect(invoice.x402Settlements).toMatchObject([
      { status: "SETTLED", transaction: body.transaction, errorReason: null },
    ]);
    expect(await devnet.usdcBalance(invoice.depositAddress)).toBe(parseUnits("2", 6));
    expect(await devnet.usdcBalance(account.address)).toBe(parseUnits("8", 6));
  });

  it("a settlement whose answer is lost is decided on chain: the transfer happened, so 200 with its transaction", async () => {
    up = { verify: true, settle: "lost" };
    const { organization, url } = await app.paylink("2.00");
    const organizationId = organization.id;
    const { account, pay } = await agent();
    const response = await pay(url);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    const receipt = await devnet.client.getTransactionReceipt({ hash: body.transaction });
    expect(receipt.status).toBe("success");
    const invoice = await db().invoice.findFirstOrThrow({
      where: { organizationId },
      include: { x402Settlements: true },
    });
    expect(invoice.x402Settlements).toMatchObject([{ status: "SETTLED", transaction: body.transaction }]);
    expect(await devnet.usdcBalance(invoice.depositAddress)).toBe(parseUnits("2", 6));
    expect(await devnet.usdcBalance(account.address)).toBe(parseUnits("8", 6));
  });

  it("another payer of a session whose payment is still settling: 503 payment_in_progress with Retry-After, not a 402 inviting a new signature; nothing recorded for it", async () => {
    up = { verify: true, settle: false };
    const created = await app.session("2.00");
    const first = await agent();
    expect((await (await signedPayment(created.url, first.client))()).status).toBe(503);
    const other = await agent();
    const response = await (await signedPayment(created.url, other.client))();
    expect(response.status).toBe(503);
    expect(response.headers.get("Retry-After")).toBe("5");
    expect((await response.json()).error.code).toBe("payment_in_progress");
    const invoice = await db().invoice.findUniqueOrThrow({
      where: { checkoutSessionId: created.id },
      include: { x402Settlements: true },
    });
    expect(invoice.x402Settlements).toMatchObject([
      { payer: first.account.address.toLowerCase(), status: "SETTLING" },
    ]);
    expect(await devnet.usdcBalance(other.account.address)).toBe(parseUnits("10", 6));
  });

  it("a settlement left SETTLING by a crash is finished by the next copy of the payment, once", async () => {
    up = { verify: true, settle: false };
    const created = await app.session("2.00");
    const { url } = created;
    const { account, client } = await agent();
    const send = await signedPayment(url, client);
    expect((await send()).status).toBe(503);
    // What a process that died while settling leaves behind: the row SETTLING, its lease lapsed.
    const invoice = await db().invoice.findUniqueOrThrow({ where: { checkoutSessionId: created.id } });
    await db().$executeRaw`
      UPDATE "X402Settlement" SET "status" = 'SETTLING', "errorReason" = NULL, "updatedAt" = now() - interval '1 minute'
      WHERE "invoiceId" = ${invoice.id}`;

    up = { verify: true, settle: true };
    const [one, two] = await Promise.all([send(), send()]);
    expect([one.status, two.status]).toEqual([200, 200]);
    expect(one.headers.get("PAYMENT-RESPONSE")).toBe(two.headers.get("PAYMENT-RESPONSE"));
    expect(await devnet.usdcBalance(invoice.depositAddress)).toBe(parseUnits("2", 6));
    expect(await devnet.usdcBalance(account.address)).toBe(parseUnits("8", 6));
    expect(await db().x402Settlement.findFirstOrThrow({ where: { invoiceId: invoice.id } })).toMatchObject({
      status: "SETTLED",
    });
  });

  it("the periodic check decides settlements a crash left SETTLING from the chain", async () => {
    // One whose transfer happened: its answer was lost, then the row reset as a crash leaves it.
    up = { verify: true, settle: "lost" };
    const sent = await app.paylink("2.00");
    const { pay } = await agent();
    const paid = await (await pay(sent.url)).json();
    const sentInvoice = await db().invoice.findFirstOrThrow({
      where: { organizationId: sent.organization.id },
    });
    // One never submitted: a merchant session's, whose facilitator was down.
    up = { verify: true, settle: false };
    const created = await app.session("2.00");
    expect((await (await agent()).pay(created.url)).status).toBe(503);
    const unsentInvoice = await db().invoice.findUniqueOrThrow({
      where: { checkoutSessionId: created.id },
    });

    const stick = (invoiceId: string, validBefore: Date) => db().$executeRaw`
      UPDATE "X402Settlement" SET "status" = 'SETTLING', "transaction" = NULL, "errorReason" = NULL,
        "validBefore" = ${validBefore}, "updatedAt" = now() - interval '10 minutes'
      WHERE "invoiceId" = ${invoiceId}`;
    const rowOf = (invoiceId: string) => db().x402Settlement.findFirstOrThrow({ where: { invoiceId } });
    await stick(sentInvoice.id, new Date(Date.now() + 60_000));
    await stick(unsentInvoice.id, new Date(Date.now() + 60_000));
    // Still inside its window, the unsent one may yet be settled by its payer's next copy: left.
    expect(await resolveStuckX402Settlements(db())).toBe(1);
    expect(await rowOf(sentInvoice.id)).toMatchObject({ status: "SETTLED", transaction: paid.transaction });
    expect(await rowOf(unsentInvoice.id)).toMatchObject({ status: "SETTLING" });

    // Past its window by the chain's clock, but not by the margin a replaced block needs: left.
    await devnet.mine(1);
    await stick(unsentInvoice.id, new Date(Date.now() - 60_000));
    expect(await resolveStuckX402Settlements(db())).toBe(0);
    await stick(unsentInvoice.id, new Date(Date.now() - 10 * 60_000));
    expect(await resolveStuckX402Settlements(db())).toBe(1);
    expect(await rowOf(unsentInvoice.id)).toMatchObject({
      status: "FAILED",
      errorReason: "settlement_interrupted",
    });
    expect((await db().invoice.findUniqueOrThrow({ where: { id: unsentInvoice.id } })).status).toBe(
      "AWAITING_PAYMENT",
    );
    expect(await devnet.usdcBalance(unsentInvoice.depositAddress)).toBe(0n);
    expect(await resolveStuckX402Settlements(db())).toBe(0);
  });

  it("rows that stay undecided do not starve the others: each pass takes the least recently tried", async () => {
    up = { verify: true, settle: "lost" };
    const sent = await app.paylink("2.00");
    const paid = await (await (await agent()).pay(sent.url)).json();
    const invoice = await db().invoice.findFirstOrThrow({ where: { organizationId: sent.organization.id } });
    await db().$executeRaw`
      UPDATE "X402Settlement" SET "status" = 'SETTLING', "transaction" = NULL, "errorReason" = NULL,
        "updatedAt" = now() - interval '10 minutes'
      WHERE "invoiceId" = ${invoice.id}`;
    // A full batch of older rows still inside their window (nonces never used): each pass leaves them.
    await db().$executeRaw`
      INSERT INTO "X402Settlement" ("id", "organizationId", "invoiceId", "resourceKind", "network", "asset",
        "payer", "nonce", "amount", "payTo", "validBefore", "status", "createdAt", "updatedAt")
      SELECT 'x402_starve_' || n, s."organizationId", s."invoiceId", s."resourceKind", s."network", s."asset",
        s."payer", '0x' || lpad(to_hex(n), 64, '0'), s."amount", s."payTo", now() + interval '1 hour',
        'SETTLING', now() - interval '1 day', now() - interval '20 minutes'
      FROM "X402Settlement" s, generate_series(1, 100) n WHERE s."invoiceId" = ${invoice.id}`;
    try {
      expect(await resolveStuckX402Settlements(db())).toBe(0);
      expect(await resolveStuckX402Settlements(db())).toBe(1);
      expect(
        await db().x402Settlement.findFirstOrThrow({
          where: { invoiceId: invoice.id, transaction: { not: null } },
        }),
      ).toMatchObject({ status: "SETTLED", transaction: paid.transaction });
    } finally {
      await db().x402Settlement.deleteMany({ where: { id: { startsWith: "x402_starve_" } } });
    }
  });

  it.each([
    {
      name: "the settle call cut once our facilitator sent it: SETTLING with its transaction",
      settle: "cut" as const,
      ours: true,
    },
    {
      name: "an external facilitator that sent it, then answered a failure without its transaction: SETTLING, never FAILED",
      settle: "sentThenRefused" as const,
      ours: false,
    },
  ])(
    "a transfer still pending, $name; a copy asks for nothing and sends nothing; mined, the same payment answers 200 with it",
    async ({ settle, ours }) => {
      const { organization, url } = await app.paylink("2.00");
      const { account, client } = await agent();
      const send = await signedPayment(url, client);
      const wallet = facilitatorWallet();
      const sentBefore = await devnet.client.getTransactionCount({ address: wallet, blockTag: "pending" });

      await devnet.rpc("evm_setAutomine", [false]);
      up = { verify: true, settle };
      const response = await send();
      expect(response.status).toBe(503);
      expect(response.headers.get("Retry-After")).toBe("5");
      expect((await response.json()).error.code).toBe("settlement_pending");
      const [pending] = await pendingTransactions();
      const invoice = await db().invoice.findFirstOrThrow({
        where: { organizationId: organization.id },
        include: { checkoutSession: true, x402Settlements: true },
      });
      // Only our facilitator records what it sends; the external one's transfer is found on chain.
      expect(invoice.x402Settlements).toMatchObject([
        { status: "SETTLING", transaction: ours ? pending : null, errorReason: null },
      ]);
      expect(invoice.status).toBe("AWAITING_PAYMENT");
      expect(invoice.checkoutSession.status).not.toBe("EXPIRED");

      // Sent again while the first may still land: the copy takes the row over, and with a
      // transaction recorded or one spending the authorization in the pending block, asks for nothing.
      up = { verify: true, settle: true };
      const asked = settleRequests;
      const again = await send();
      expect(again.status).toBe(503);
      expect(settleRequests).toBe(asked);
      expect(await pendingTransactions()).toEqual([pending]);

      await devnet.rpc("evm_setAutomine", [true]);
      await devnet.mine(1);
      const settled = await send();
      expect(settled.status).toBe(200);
      expect((await settled.json()).transaction).toBe(pending);
      expect(await devnet.usdcBalance(account.address)).toBe(parseUnits("8", 6));
      expect(await devnet.usdcBalance(invoice.depositAddress)).toBe(parseUnits("2", 6));
      expect(await devnet.client.getTransactionCount({ address: wallet })).toBe(sentBefore + (ours ? 1 : 0));
      const row = await db().x402Settlement.findFirstOrThrow({ where: { invoiceId: invoice.id } });
      expect(row).toMatchObject({ status: "SETTLED", transaction: pending, errorReason: null });
      // Our wallet's gas is counted; the external facilitator's is its own: none of ours.
      expect(row.gasUsd).not.toBeNull();
      expect(Number(row.gasUsd) > 0).toBe(ours);
    },
  );

  it("a send that errs after the node took the transaction: 503 and SETTLING, not FAILED; mined, the same payment answers 200", async () => {
    const { organization, url } = await app.paylink("2.00");
    const { account, client } = await agent();
    const send = await signedPayment(url, client);
    await devnet.rpc("evm_setAutomine", [false]);
    up = { verify: true, settle: "sendFails" };
    const response = await send();
    expect(response.status).toBe(503);
    expect((await response.json()).error.code).toBe("settlement_pending");
    const [pending] = await pendingTransactions();
    const invoice = await db().invoice.findFirstOrThrow({
      where: { organizationId: organization.id },
      include: { x402Settlements: true },
    });
    expect(invoice.status).toBe("AWAITING_PAYMENT");
    expect(invoice.x402Settlements).toMatchObject([{ status: "SETTLING", transaction: pending }]);

    await devnet.rpc("evm_setAutomine", [true]);
    await devnet.mine(1);
    up = { verify: true, settle: true };
    expect((await send()).status).toBe(200);
    expect(await devnet.usdcBalance(account.address)).toBe(parseUnits("8", 6));
    expect(await devnet.usdcBalance(invoice.depositAddress)).toBe(parseUnits("2", 6));
  });

  it("a settlement that reverts on chain (the payer moved its balance away ahead of it) records the gas it cost and, the payer short of the value, FAILS at once: 402 insufficient_funds", async () => {
    const { organization, payer, mined } = await settlementAwaitingBlock();
    await payer.writeContract({
      address: devnet.usdc,
      abi: erc20Abi,
      functionName: "transfer",
      args: [devnet.wallet.account.address, parseUnits("10", 6)],
      ...aheadOfSettlement,
    });
    const response = await mined();
    expect(response.status).toBe(402);
    expect((await response.json()).error.code).toBe("insufficient_funds");

    const invoice = await db().invoice.findFirstOrThrow({ where: { organizationId: organization.id } });
    const row = await db().x402Settlement.findFirstOrThrow({ where: { invoiceId: invoice.id } });
    expect(row).toMatchObject({ status: "FAILED", errorReason: "insufficient_funds" });
    const receipt = await devnet.client.getTransactionReceipt({ hash: row.transaction as Hex });
    expect(receipt.status).toBe("reverted");
    expect(Number(row.gasUsd)).toBeGreaterThan(0);
    expect(invoice.status).toBe("OVERDUE");
    expect(await devnet.usdcBalance(invoice.depositAddress)).toBe(0n);
  });

  it("a payer who cancels the authorization ahead of its pending transfer: FAILED authorization_canceled, 402, the paylink's invoice withdrawn, never 200", async () => {
    const { organization, account, payer, mined } = await settlementAwaitingBlock();
    const row = await db().x402Settlement.findFirstOrThrow({
      where: { payer: account.address.toLowerCase() },
    });
    // EIP-3009's cancel marks the nonce spent as a transfer does; sent ahead, it lands first.
    const cancel = await account.signTypedData({
      domain: { name: "Test USD Coin", version: "2", chainId: hardhat.id, verifyingContract: devnet.usdc },
      types: {
        CancelAuthorization: [
          { name: "authorizer", type: "address" },
          { name: "nonce", type: "bytes32" },
        ],
      },
      primaryType: "CancelAuthorization",
      message: { authorizer: account.address, nonce: row.nonce as Hex },
    });
    await payer.writeContract({
      address: devnet.usdc,
      abi: parseAbi(["function cancelAuthorization(address authorizer, bytes32 nonce, bytes signature)"]),
      functionName: "cancelAuthorization",
      args: [account.address, row.nonce as Hex, cancel],
      ...aheadOfSettlement,
    });
    // The settlement reverted and the chain says why: refused at once, never 200 with the reverted transaction.
    const response = await mined();
    expect(response.status).toBe(402);
    expect((await response.json()).error.code).toBe("authorization_canceled");

    const invoice = await db().invoice.findFirstOrThrow({
      where: { organizationId: organization.id },
      include: { x402Settlements: true },
    });
    expect(invoice.x402Settlements).toMatchObject([
      { status: "FAILED", errorReason: "authorization_canceled" },
    ]);
    expect(invoice.status).toBe("OVERDUE");
    expect(invoice.amountPaid.toString()).toBe("0");
    expect(await devnet.usdcBalance(account.address)).toBe(parseUnits("10", 6));
    expect(await devnet.usdcBalance(invoice.depositAddress)).toBe(0n);
  });

  it("a sent transfer that never lands is FAILED once the chain is past its window: the same payment then answers 402 settlement_expired", async () => {
    const { organization, url } = await app.paylink("2.00");
    const { account, client } = await agent();
    const send = await signedPayment(url, client);
    await devnet.rpc("evm_setAutomine", [false]);
    up = { verify: true, settle: "cut" };
    expect((await send()).status).toBe(503);
    const [pending] = await pendingTransactions();
    // The node forgets it (as a mempool may), and the chain moves past the authorization's window.
    await devnet.rpc("hardhat_dropTransaction", [pending]);
    await devnet.rpc("evm_setAutomine", [true]);
    await devnet.mine(1);
    const invoice = await db().invoice.findFirstOrThrow({ where: { organizationId: organization.id } });
    await db().$executeRaw`
      UPDATE "X402Settlement" SET "validBefore" = now() - interval '10 minutes' WHERE "invoiceId" = ${invoice.id}`;

    up = { verify: true, settle: true };
    const expired = await send();
    expect(expired.status).toBe(402);
    expect((await expired.json()).error.code).toBe("settlement_expired");
    expect(await db().x402Settlement.findFirstOrThrow({ where: { invoiceId: invoice.id } })).toMatchObject({
      status: "FAILED",
      transaction: pending,
      errorReason: "settlement_expired",
    });
    expect((await db().invoice.findUniqueOrThrow({ where: { id: invoice.id } })).status).toBe("OVERDUE");
    expect(await devnet.usdcBalance(account.address)).toBe(parseUnits("10", 6));
    expect(await devnet.usdcBalance(invoice.depositAddress)).toBe(0n);
  });
});
