import { getAddress, zeroAddress } from "viem";
import { describe, expect, it } from "vitest";
import { devnetNetwork } from "@/lib/chains/devnet";
import { db } from "@/lib/db/client";
import { hashClaimToken } from "@/lib/refunds/claim-token";
import { callRoute } from "@/scripts/test-support/call-route";
import { createTestAgentCredential, createTestOrganization } from "@/scripts/test-support/fixtures";
import { createTestPaidInvoice } from "@/scripts/test-support/refund-fixtures";
import { GET as retrieve } from "./[id]/route";
import { POST as create, GET as list } from "./route";

// Buyers' claim links and owners' proposals land in the development mailbox; USDC has 6 decimals.
process.env.SERVICE_DEV_MAILBOX = "true";
process.env.SERVICE_HD_MNEMONIC = "test test test test test test test test test test test junk";
process.env.SERVICE_NETWORKS = JSON.stringify([
  devnetNetwork({
    rpcUrl: "http://127.0.0.1:1",
    usdc: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
    confirmations: 1,
  }),
]);

const payer = getAddress("0x52908400098527886e0f7030069857d2e4169ee7");
const otherPayer = getAddress("0x8617e340b3d01fa5f11f306f4090fd50e238070d");
const merchantNamed = getAddress("0xde709f2102306220921060314715629080e2fb77");

const key = () => `refund-test-${Math.random().toString(36).slice(2)}-${Date.now()}`;

type TestPayment = { amount: string; fromAddress: string | null; status?: "CONFIRMING" | "CONFIRMED" };

async function paidStore(
  payments: TestPayment[] = [{ amount: "40", fromAddress: payer }],
  customerEmail?: string,
) {
  const { organization, auth } = await createTestOrganization();
  const invoice = await createTestPaidInvoice(organization.id, { amount: "40", payments, customerEmail });
  return { organization, auth, invoice };
}

function post(auth: Record<string, string>, body: unknown, idempotencyKey?: string) {
  return callRoute(create, "/api/private/refunds", {
    headers: { ...auth, ...(idempotencyKey ? { "idempotency-key": idempotencyKey } : {}) },
    body,
  });
}

describe("POST /api/private/refunds", () => {
  it("refunds part of a payment to the address that paid, and records refund.created", async () => {
    const { organization, auth, invoice } = await paidStore();
    const response = await post(auth, {
      invoiceId: invoice.id,
      amount: "16",
      destination: "payer",
      reason: "Damaged",
    });
    expect(response.status).toBe(200);
    expect(response.json.data).toEqual({
      id: expect.stringMatching(/^rfd_/),
      object: "refund",
      invoiceId: invoice.id,
      checkoutSessionId: invoice.checkoutSessionId,
      network: "devnet",
      token: "USDC",
      amount: "16",
      status: "pending",
      destination: "payer",
      toAddress: payer,
      claimUrl: null,
      txHash: null,
      reason: "Damaged",
      failureReason: null,
      pendingReason: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const row = await db().refund.findUniqueOrThrow({ where: { id: response.json.data.id } });
    expect(row).toMatchObject({ organizationId: organization.id, requestedByKind: "api_key" });
    expect(row.amountUsd.toString()).toBe("16");
    const events = await db().event.findMany({
      where: { organizationId: organization.id, type: "refund.created" },
    });
    expect(events).toHaveLength(1);
    expect(events[0].payload).toMatchObject({
      type: "refund.created",
      refund: { id: row.id, status: "pending", amount: "16" },
    });
  });

  it("refunds all that is left when no amount is given, then nothing more", async () => {
    const { auth, invoice } = await paidStore([
      { amount: "25", fromAddress: payer },
      { amount: "15", fromAddress: payer.toLowerCase() },
    ]);
    expect((await post(auth, { invoiceId: invoice.id, amount: "10", destination: "payer" })).status).toBe(
      200,
    );
    const rest = await post(auth, { invoiceId: invoice.id, destination: merchantNamed });
    expect(rest.json.data).toMatchObject({ amount: "30", destination: "address", toAddress: merchantNamed });
    const more = await post(auth, { invoiceId: invoice.id, destination: "payer" });
    expect(more.status).toBe(409);
    expect(more.json.error.code).toBe("refund_exceeds_payment");
  });

  it("counts a failed refund as given back to the invoice", async () => {
    const { auth, invoice } = await paidStore();
    const first = await post(auth, { invoiceId: invoice.id, destination: "payer" });
    await db().refund.update({ where: { id: first.json.data.id }, data: { status: "FAILED" } });
    const again = await post(auth, { invoiceId: invoice.id, amount: "40", destination: "payer" });
    expect(again.status).toBe(200);
  });

  it.each([
    [
      "more than was paid",
      { amount: "40.000001", destination: "payer" },
      409,
      "refund_exceeds_payment",
      undefined,
    ],
    ["a negative amount", { amount: "-1", destination: "payer" }, 400, "parameter_invalid", "amount"],
    ["a number as amount", { amount: 16, destination: "payer" }, 400, "parameter_invalid", "amount"],
    [
      "more decimals than USDC has",
      { amount: "1.1234567", destination: "payer" },
      400,
      "parameter_invalid",
      "amount",
    ],
    ["a zero amount", { amount: "0", destination: "payer" }, 400, "parameter_invalid", "amount"],
    ["an unknown destination", { destination: "buyer" }, 400, "parameter_invalid", "destination"],
    ["a short address", { destination: "0x1234" }, 400, "parameter_invalid", "destination"],
    [
      "an address with a wrong checksum",
      { destination: "0x52908400098527886E0F7030069857D2E4169Ee7" },
      400,
      "parameter_invalid",
      "destination",
    ],
    [
      "a Solana address on an EVM invoice",
      { destination: "AqynRZwvVqUPRwRJXvm6odUb3t93fDjnWe3p6BeuUFxD" },
      400,
      "parameter_invalid",
      "destination",
    ],
    ["no destination", {}, 400, "parameter_missing", "destination"],
    [
      "a reason over 500 characters",
      { destination: "payer", reason: "x".repeat(501) },
      400,
      "parameter_invalid",
      "reason",
    ],
    ["an unknown field", { destination: "payer", currency: "USD" }, 400, "parameter_unknown", "currency"],
  ])("refuses %s", async (_name, fields, status, code, param) => {
    const { organization, auth, invoice } = await paidStore();
    const response = await post(auth, { invoiceId: invoice.id, ...fields });
    expect(response.status).toBe(status);
    expect(response.json.error.code).toBe(code);
    expect(response.json.error.param).toBe(param);
    expect(await db().refund.count({ where: { organizationId: organization.id } })).toBe(0);
  });

  it.each([
    [
      "an invoice without a confirmed payment",
      [{ amount: "40", fromAddress: payer, status: "CONFIRMING" as const }],
      "payer",
      409,
      "invoice_not_paid",
    ],
    [
      "a payment minted from the zero address",
      [{ amount: "40", fromAddress: zeroAddress }],
      "payer",
      400,
      "no_payer_address",
    ],
    [
      "a payment whose sender was not recorded",
      [{ amount: "40", fromAddress: null }],
      "payer",
      400,
      "no_payer_address",
    ],
    [
      "payments from several addresses",
      [
        { amount: "20", fromAddress: payer },
        { amount: "20", fromAddress: otherPayer },
      ],
      "payer",
      400,
      "several_payer_addresses",
    ],
  ])("refuses %s", async (_name, payments, destination, status, code) => {
    const { auth, invoice } = await paidStore(payments);
    const response = await post(auth, { invoiceId: invoice.id, destination });
    expect(response.status).toBe(status);
    expect(response.json.error.code).toBe(code);
    if (code === "several_payer_addresses") {
      expect(response.json.error.param).toBe("destination");
      expect(response.json.error.message).toContain(payer);
      expect(response.json.error.message).toContain(otherPayer);
    }
  });

  it("holds a named address for an owner even when it paid, and claim links work without a known payer", async () => {
    const { auth, invoice } = await paidStore([
      { amount: "20", fromAddress: payer },
      { amount: "20", fromAddress: zeroAddress },
    ]);
    const named = await post(auth, { invoiceId: invoice.id, amount: "5", destination: payer });
    // An API key names the address, so an owner decides it (docs/api.md, Refunds).
    expect(named.json.data).toMatchObject({
      status: "requires_approval",
      destination: "address",
      toAddress: payer,
    });
    const claim = await post(auth, { invoiceId: invoice.id, amount: "5", destination: "claim" });
    expect(claim.json.data).toMatchObject({ status: "pending_claim", destination: "claim", toAddress: null });
  });

  it("opens a claim link for 30 days, stores only its token's hash and emails it to the buyer", async () => {
    const { auth, invoice } = await paidStore(undefined, "Buyer@Example.com");
    const response = await post(auth, { invoiceId: invoice.id, amount: "16", destination: "claim" });
    expect(response.status).toBe(200);
    const { claimUrl, id } = response.json.data;
    expect(claimUrl).toMatch(/\/refund\/[A-Za-z0-9_-]{43}$/);
    const token = claimUrl.split("/").pop();
    const row = await db().refund.findUniqueOrThrow({ where: { id } });
    expect(row.claimTokenHash).toBe(hashClaimToken(token));
    expect(row.claimEmail).toBe("buyer@example.com");
    const days = ((row.claimExpiresAt?.getTime() ?? 0) - row.createdAt.getTime()) / 86_400_000;
    expect(days).toBe(30);
    const emails = await db().devEmail.findMany({ where: { to: "buyer@example.com" } });
    expect(emails).toHaveLength(1);
    expect(emails[0].text).toContain(claimUrl);
  });

  it("does not email a claim link to an invalid customer address", async () => {
    const { auth, invoice } = await paidStore(undefined, "a@x.com,b@y.com");
    const response = await post(auth, { invoiceId: invoice.id, destination: "claim" });
    expect(response.status).toBe(200);
    const row = await db().refund.findUniqueOrThrow({ where: { id: response.json.data.id } });
    expect(row.claimEmail).toBeNull();
    expect(await db().devEmail.count({ where: { to: { contains: "a@x.com" } } })).toBe(0);
  });

  it("answers 404 for another organization's invoice", async () => {
    const { invoice } = await paidStore();
    const { auth } = await createTestOrganization("Other");
    const response = await post(auth, { invoiceId: invoice.id, destination: "payer" });
    expect(response.status).toBe(404);
    expect(response.json.error.param).toBe("invoiceId");
    expect(await db().refund.count({ where: { invoiceId: invoice.id } })).toBe(0);
  });

  it("replays the same request with the same key: one refund, the same answer", async () => {
    const { auth, invoice } = await paidStore();
    const idempotencyKey = key();
    const body = { invoiceId: invoice.id, amount: "16", destination: "payer" };
    const first = await post(auth, body, idempotencyKey);
    const second = await post(
      auth,
      { destination: "payer", amount: "16", invoiceId: invoice.id },
      idempotencyKey,
    );
    expect(second.status).toBe(200);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.json.data).toEqual(first.json.data);
    expect(await db().refund.count({ where: { invoiceId: invoice.id } })).toBe(1);
    const other = await post(auth, { ...body, amount: "17" }, idempotencyKey);
    expect(other.status).toBe(409);
    expect(other.json.error.code).toBe("idempotency_key_reused");
  });

  it("replays concurrent requests with one key as one refund", async () => {
    const { auth, invoice } = await paidStore();
    const idempotencyKey = key();
    const body = { invoiceId: invoice.id, amount: "16", destination: "payer" };
    const answers = await Promise.all([1, 2, 3].map(() => post(auth, body, idempotencyKey)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(new Set(answers.map((answer) => answer.json.data.id)).size).toBe(1);
    expect(await db().refund.count({ where: { invoiceId: invoice.id } })).toBe(1);
  });

  it("never lets concurrent refunds exceed what was paid", async () => {
    const { auth, invoice } = await paidStore();
    const answers = await Promise.all(
      [1, 2, 3, 4, 5, 6].map(() => post(auth, { invoiceId: invoice.id, amount: "10", destination: "payer" })),
    );
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(4);
    expect(answers.filter((answer) => answer.status === 409).map((answer) => answer.json.error.code)).toEqual(
      ["refund_exceeds_payment", "refund_exceeds_payment"],
    );
    const refunds = await db().refund.findMany({ where: { invoiceId: invoice.id } });
    expect(refunds.reduce((sum, refund) => sum + Number(refund.amount), 0)).toBe(40);
  });
});

describe("GET /api/private/refunds", () => {
  it("lists newest first, filters by invoice and status, pages, and retrieves one", async () => {
    const { auth, organization, invoice } = await paidStore();
    const second = await createTestPaidInvoice(organization.id, {
      amount: "10",
      payments: [{ amount: "10", fromAddress: payer }],
    });
    const a = (await post(auth, { invoiceId: invoice.id, amount: "1", destination: "payer" })).json.data;
    const b = (await post(auth, { invoiceId: invoice.id, amount: "2", destination: "claim" })).json.data;
    const c = (await post(auth, { invoiceId: second.id, amount: "3", destination: "payer" })).json.data;
    const all = await callRoute(list, "/api/private/refunds", { headers: auth });
    expect(all.status).toBe(200);
    expect(all.json.data).toMatchObject({ object: "list", page: 1, rows: 20, total: 3, hasMore: false });
    expect(all.json.data.data.map((refund: { id: string }) => refund.id)).toEqual([c.id, b.id, a.id]);
    const byInvoice = await callRoute(
      list,
      `/api/private/refunds?invoiceId=${invoice.id}&status=pending_claim`,
      {
        headers: auth,
      },
    );
    expect(byInvoice.json.data.data.map((refund: { id: string }) => refund.id)).toEqual([b.id]);
    const page = await callRoute(list, "/api/private/refunds?rows=1&page=2", { headers: auth });
    expect(page.json.data).toMatchObject({ page: 2, rows: 1, total: 3, hasMore: true });
    expect(page.json.data.data.map((refund: { id: string }) => refund.id)).toEqual([b.id]);
    const one = await callRoute(retrieve, `/api/private/refunds/${b.id}`, {
      headers: auth,
      params: { id: b.id },
    });
    expect(one.status).toBe(200);
    expect(one.json.data).toEqual(b);
  });

  it.each([
    ["status=PENDING", "status"],
    ["rows=101", "rows"],
    ["page=0", "page"],
    ["colour=red", "colour"],
  ])("rejects the list query %s (400, param %s)", async (query, param) => {
    const { auth } = await createTestOrganization();
    const response = await callRoute(list, `/api/private/refunds?${query}`, { headers: auth });
    expect(response.status).toBe(400);
    expect(response.json.error.param).toBe(param);
  });

  it("answers 404 for another organization's refund and lists none of it", async () => {
    const { auth, invoice } = await paidStore();
    const refund = (await post(auth, { invoiceId: invoice.id, destination: "payer" })).json.data;
    const other = await createTestOrganization("Other");
    const response = await callRoute(retrieve, `/api/private/refunds/${refund.id}`, {
      headers: other.auth,
      params: { id: refund.id },
    });
    expect(response.status).toBe(404);
    const listed = await callRoute(list, "/api/private/refunds", { headers: other.auth });
    expect(listed.json.data.total).toBe(0);
  });

  it("lets a read-only agent credential read refunds but not create them", async () => {
    const { auth, organization, invoice } = await paidStore();
    await post(auth, { invoiceId: invoice.id, destination: "payer" });
    const reader = await createTestAgentCredential(organization.id, "read");
    const listed = await callRoute(list, "/api/private/refunds", { headers: reader.auth });
    expect(listed.json.data.total).toBe(1);
    const refused = await post(reader.auth, { invoiceId: invoice.id, destination: "payer" });
    expect(refused.status).toBe(403);
    expect(refused.json.error.code).toBe("insufficient_access");
  });
});
