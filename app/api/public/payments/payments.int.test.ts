import { describe, expect, it } from "vitest";
import { GET as retrieveSession } from "@/app/api/checkout-sessions/[id]/route";
import { POST as createSession } from "@/app/api/checkout-sessions/route";
import { depositAddress, depositKeyFromMnemonic } from "@/lib/chains/evm/derive-deposit-address";
import { db } from "@/lib/db/client";
import { callRoute } from "@/scripts/test-support/call-route";
import { createTestOrganization } from "@/scripts/test-support/fixtures";
import { GET } from "./[id]/route";
import { POST } from "./route";

const mnemonic = "test test test test test test test test test test test junk";
const usdcAddress = `0x${"5".repeat(40)}`;
process.env.SERVICE_HD_MNEMONIC = mnemonic;
// Some tests start one session many times over; the per-session cap has its own test.
process.env.SERVICE_RATE_LIMIT_PAYMENT_STARTS_PER_SESSION_PER_HOUR = "1000";
process.env.SERVICE_NETWORKS = JSON.stringify([
  {
    id: "devnet",
    name: "Local devnet",
    chainId: 31337,
    rpcUrl: "http://127.0.0.1:8545",
    confirmations: 2,
    tokens: [
      { symbol: "USDC", decimals: 6, address: usdcAddress, peggedTo: "USD" },
      { symbol: "ETH", decimals: 18 },
      // Neither pegged, nor with a feed or configured rate: cannot be quoted.
      { symbol: "XYZ", decimals: 18, address: `0x${"6".repeat(40)}` },
    ],
  },
]);
// No chain runs here: prices come from configuration (feeds are tested in lib/prices).
const configured = (rate: string) => ({ rate, updatedAt: new Date().toISOString(), maxAgeSeconds: 3600 });
process.env.SERVICE_RATES = JSON.stringify({ "ETH/USD": configured("3000"), "EUR/USD": configured("1.08") });
const root = depositKeyFromMnemonic(mnemonic);

async function session(body: Record<string, unknown> = {}) {
  const merchant = await createTestOrganization();
  const response = await callRoute(createSession, "/api/checkout-sessions", {
    headers: { ...merchant.auth, "idempotency-key": `pay-${Math.random()}-${Date.now()}` },
    body: {
      amount: "49.00",
      currency: "USD",
      customerEmail: "buyer@example.com",
      merchantOrderId: "o-1",
      ...body,
    },
  });
  return { ...merchant, session: response.json };
}

const start = (checkoutSessionId: string, network = "devnet", token = "USDC") =>
  callRoute(POST, "/api/public/payments", { body: { checkoutSessionId, network, token } });

describe("POST /api/public/payments", () => {
  it("creates the invoice with a derived deposit address and a frozen quote, and completes the session", async () => {
    const { auth, session: created } = await session();
    const before = Date.now();
    const response = await start(created.id);
    expect(response.status).toBe(201);
    const invoice = await db().invoice.findUniqueOrThrow({ where: { checkoutSessionId: created.id } });
    expect(response.json).toEqual({
      id: invoice.id,
      object: "payment_request",
      checkoutSessionId: created.id,
      status: "AWAITING_PAYMENT",
      network: "devnet",
      networkName: "Local devnet",
      chainId: 31337,
      explorerUrl: null,
      token: "USDC",
      tokenAddress: usdcAddress,
      tokenDecimals: 6,
      depositAddress: depositAddress(root, invoice.derivationIndex),
      reference: null,
      // EVM wallets in the browser pay through EIP-1193, not Wallet Standard.
      walletChain: null,
      // EIP-681: the token's transfer of 49 USDC in base units to the deposit address, on chain 31337.
      paymentUri: `ethereum:${usdcAddress}@31337/transfer?address=${depositAddress(root, invoice.derivationIndex)}&uint256=49000000`,
      amountDue: "49.000000",
      amountPaid: "0.000000",
      remaining: "49.000000",
      overpaid: "0.000000",
      requiredConfirmations: 2,
      deadline: expect.any(String),
      // USDC for USD: no rate, so no quote window.
      quoteExpiresAt: null,
      payments: [],
    });
    const minutes = (Date.parse(response.json.deadline) - before) / 60_000;
    expect(minutes).toBeGreaterThan(59.9);
    expect(minutes).toBeLessThanOrEqual(60.1);

    expect((await db().checkoutSession.findUniqueOrThrow({ where: { id: created.id } })).status).toBe(
      "COMPLETED",
    );
    const event = await db().event.findFirstOrThrow({ where: { invoiceId: invoice.id } });
    expect(event.type).toBe("invoice.created");
    expect(event.payload).toMatchObject({
      invoiceId: invoice.id,
      amount: "49",
      amountUsd: "49.00",
      currency: "USD",
      paymentType: "ONE_TIME",
      status: "AWAITING_PAYMENT",
      customer: { email: "buyer@example.com" },
      livemode: true,
    });

    const retrieved = await callRoute(retrieveSession, `/api/checkout-sessions/${created.id}`, {
      headers: auth,
      params: { id: created.id },
    });
    expect(retrieved.json).toMatchObject({
      status: "COMPLETED",
      payment: {
        invoiceId: invoice.id,
        status: "AWAITING_PAYMENT",
        network: "devnet",
        token: "USDC",
        amountDue: "49.000000",
        amountPaid: "0.000000",
        overpaid: "0.000000",
        deadline: response.json.deadline,
      },
    });

    const view = await callRoute(GET, `/api/public/payments/${invoice.id}`, { params: { id: invoice.id } });
    expect(view.json).toEqual(response.json);
  });

  it("prices a EUR session in USDC through the fiat rate and ETH through its rate", async () => {
    const eur = await session({ amount: "10.00", currency: "EUR" });
    expect((await start(eur.session.id)).json.amountDue).toBe("10.800000");
    const eth = await session({ amount: "30.00", currency: "USD" });
    const before = Date.now();
    const ethStart = await start(eth.session.id, "devnet", "ETH");
    expect(ethStart.json.amountDue).toBe("0.010000000000000000");
    // A quote with a rate is held for 15 minutes.
    const held = (Date.parse(ethStart.json.quoteExpiresAt) - before) / 60_000;
    expect(held).toBeGreaterThan(14.9);
    expect(held).toBeLessThanOrEqual(15.1);
    const invoice = await db().invoice.findUniqueOrThrow({ where: { id: ethStart.json.id } });
    expect(invoice).toMatchObject({
      quoteSource: expect.stringMatching(/^ETH\/USD configured rate, updated /),
    });
    expect(invoice.amountUsd.toFixed(2)).toBe("30.00");
  });

  it("gives each invoice its own address and index", async () => {
    const sessions = await Promise.all([session(), session(), session()]);
    const responses = await Promise.all(sessions.map(({ session: created }) => start(created.id)));
    const addresses = new Set(responses.map((response) => response.json.depositAddress));
    expect(addresses.size).toBe(3);
  });

  it("makes one invoice however many times and however concurrently the buyer starts", async () => {
    const { session: created } = await session();
    const responses = await Promise.all(Array.from({ length: 10 }, () => start(created.id)));
    expect(responses.map((response) => response.status)).toEqual(Array(10).fill(201));
    expect(new Set(responses.map((response) => response.json.id)).size).toBe(1);
    expect(await db().invoice.count({ where: { checkoutSessionId: created.id } })).toBe(1);
    expect(
      await db().event.count({
        where: { type: "invoice.created", payload: { path: ["checkoutSessionId"], equals: created.id } },
      }),
    ).toBe(1);
    const other = await start(created.id, "devnet", "ETH");
    expect(other.status).toBe(409);
    expect(other.json.error.code).toBe("payment_already_started");
  });

  it.each<[string, (id: string) => Record<string, unknown>, number, string, string | undefined]>([
    [
      "an unknown network",
      (id) => ({ checkoutSessionId: id, network: "solana", token: "USDC" }),
      400,
      "network_unavailable",
      "network",
    ],
    [
      "an unknown token",
      (id) => ({ checkoutSessionId: id, network: "devnet", token: "DOGE" }),
      400,
      "token_unavailable",
      "token",
    ],
    [
      "a malformed session id",
      () => ({ checkoutSessionId: "nope", network: "devnet", token: "USDC" }),
      400,
      "parameter_invalid",
      "checkoutSessionId",
    ],
    [
      "an unknown session",
      () => ({ checkoutSessionId: "ycs_000000000000000000000000", network: "devnet", token: "USDC" }),
      404,
      "resource_missing",
      "checkoutSessionId",
    ],
    [
      "a token no price source covers",
      (id) => ({ checkoutSessionId: id, network: "devnet", token: "XYZ" }),
      400,
      "quote_unavailable",
      "token",
    ],
    [
      "a missing token",
      (id) => ({ checkoutSessionId: id, network: "devnet" }),
      400,
      "parameter_missing",
      "token",
    ],
  ])("rejects %s and creates nothing", async (_case, body, status, code, param) => {
    const { session: created } = await session();
    const response = await callRoute(POST, "/api/public/payments", { body: body(created.id) });
    expect(response.status).toBe(status);
    expect(response.json.error).toMatchObject({ code, param });
    expect(await db().invoice.count({ where: { checkoutSessionId: created.id } })).toBe(0);
    expect((await db().checkoutSession.findUniqueOrThrow({ where: { id: created.id } })).status).toBe("OPEN");
  });

  it("never starts a payment on an expired session, even before the expiry job runs", async () => {
    const { session: created } = await session({ expiresInMinutes: 5 });
    await db().checkoutSession.update({
      where: { id: created.id },
      data: { expiresAt: new Date(Date.now() - 1) },
    });
    const response = await start(created.id);
    expect(response.status).toBe(400);
    expect(response.json.error).toMatchObject({ code: "session_expired", param: "checkoutSessionId" });
    expect(await db().invoice.count({ where: { checkoutSessionId: created.id } })).toBe(0);
  });

  it("404s an unknown payment", async () => {
    const response = await callRoute(GET, "/x", { params: { id: "inv_000000000000000000000000" } });
    expect(response.status).toBe(404);
  });
});
