import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { randomBase62 } from "@/lib/ids";
import { createPaylink } from "@/lib/paylinks/create-paylink";
import { callRoute } from "@/scripts/test-support/call-route";
import { createTestOrganization } from "@/scripts/test-support/fixtures";
import { GET as retrieve } from "./[id]/route";
import { POST } from "./route";

const path = "/api/checkout-sessions";
const newKey = () => `order-${randomBase62(20)}`;

async function create(auth: Record<string, string>, body: unknown, key: string | null = newKey()) {
  return callRoute(POST, path, {
    headers: { ...auth, ...(key === null ? {} : { "idempotency-key": key }) },
    body,
  });
}

describe("POST /api/checkout-sessions (standalone)", () => {
  it("creates a session and returns the 2.1 object with the hosted URL", async () => {
    const { auth, organization } = await createTestOrganization();
    const before = Date.now();
    const response = await create(auth, {
      amount: "49.9",
      currency: "USD",
      merchantOrderId: "1042",
      description: "Two mugs",
      customerEmail: "buyer@example.com",
      customerName: "Ada Buyer",
      clientReferenceId: "cus_42",
      metadata: { cart: "c-9", gift: true, items: 2, note: null },
      successUrl: "https://shop.example/thanks?session={CHECKOUT_SESSION_ID}",
      cancelUrl: "https://shop.example/cart",
      expiresInMinutes: 30,
    });
    expect(response.status).toBe(200);
    const session = response.json;
    expect(session).toEqual({
      id: expect.stringMatching(/^ycs_[0-9A-Za-z]{24}$/),
      object: "checkout_session",
      status: "OPEN",
      paylinkId: null,
      amount: "49.90",
      currency: "USD",
      merchantOrderId: "1042",
      description: "Two mugs",
      clientReferenceId: "cus_42",
      successUrl: `https://shop.example/thanks?session=${session.id}`,
      cancelUrl: "https://shop.example/cart",
      recurring: null,
      expiresAt: expect.any(String),
      createdAt: expect.any(String),
      url: `http://localhost:3000/pay/${session.id}`,
      x402Url: `http://localhost:3000/api/x402/checkout-sessions/${session.id}`,
      // No network named: the buyer chooses on the hosted page.
      paymentRequest: null,
    });
    const expiresIn = Date.parse(session.expiresAt) - before;
    expect(expiresIn).toBeGreaterThan(29 * 60_000);
    expect(expiresIn).toBeLessThan(31 * 60_000);

    const row = await db().checkoutSession.findUniqueOrThrow({ where: { id: session.id } });
    expect(row).toMatchObject({
      organizationId: organization.id,
      customerEmail: "buyer@example.com",
      status: "OPEN",
    });
    expect(row.amount.toString()).toBe("49.9");
    expect(row.metadata).toEqual({ cart: "c-9", gift: true, items: 2, note: null });
  });

  it("defaults expiry to 60 minutes", async () => {
    const { auth } = await createTestOrganization();
    const response = await create(auth, { amount: "1", currency: "EUR" });
    const minutes = (Date.parse(response.json.expiresAt) - Date.parse(response.json.createdAt)) / 60_000;
    expect(minutes).toBe(60);
    expect(response.json.amount).toBe("1.00");
  });

  const long = (n: number) => "x".repeat(n);
  it.each<[string, unknown, string, string | undefined]>([
    ["amount as a JSON number", { amount: 10, currency: "USD" }, "parameter_invalid", "amount"],
    ["amount with an exponent", { amount: "1e3", currency: "USD" }, "parameter_invalid", "amount"],
    ["amount zero", { amount: "0.00", currency: "USD" }, "parameter_invalid", "amount"],
    ["a negative amount", { amount: "-5", currency: "USD" }, "parameter_invalid", "amount"],
    ["three decimals in USD", { amount: "1.005", currency: "USD" }, "parameter_invalid", "amount"],
    ["an absurd amount", { amount: "1000000000000", currency: "USD" }, "parameter_invalid", "amount"],
    ["no amount", { currency: "USD" }, "parameter_missing", "amount"],
    ["no currency", { amount: "1" }, "parameter_missing", "currency"],
    ["an unsupported currency", { amount: "1", currency: "XYZ" }, "parameter_invalid", "currency"],
    ["a lower-case currency", { amount: "1", currency: "usd" }, "parameter_invalid", "currency"],
    [
      "merchantOrderId over 255",
      { amount: "1", currency: "USD", merchantOrderId: long(256) },
      "parameter_invalid",
      "merchantOrderId",
    ],
    [
      "description over 1000",
      { amount: "1", currency: "USD", description: long(1001) },
      "parameter_invalid",
      "description",
    ],
    [
      "a bad email",
      { amount: "1", currency: "USD", customerEmail: "nope" },
      "parameter_invalid",
      "customerEmail",
    ],
    [
      "a nested metadata value",
      { amount: "1", currency: "USD", metadata: { a: { b: 1 } } },
      "parameter_invalid",
      "metadata.a",
    ],
    [
      "an array metadata value",
      { amount: "1", currency: "USD", metadata: { a: [1] } },
      "parameter_invalid",
      "metadata.a",
    ],
    [
      "metadata as an array",
      { amount: "1", currency: "USD", metadata: ["a"] },
      "parameter_invalid",
      "metadata",
    ],
    [
      "a long metadata key",
      { amount: "1", currency: "USD", metadata: { [long(41)]: "v" } },
      "parameter_invalid",
      `metadata.${long(41)}`,
    ],
    [
      "a long metadata value",
      { amount: "1", currency: "USD", metadata: { k: long(501) } },
      "parameter_invalid",
      "metadata.k",
    ],
    [
      "21 metadata keys",
      {
        amount: "1",
        currency: "USD",
        metadata: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, i])),
      },
      "parameter_invalid",
      "metadata",
    ],
    [
      "a javascript: successUrl",
      { amount: "1", currency: "USD", successUrl: "javascript:alert(1)" },
      "parameter_invalid",
      "successUrl",
    ],
    [
      "a relative cancelUrl",
      { amount: "1", currency: "USD", cancelUrl: "/cart" },
      "parameter_invalid",
      "cancelUrl",
    ],
    [
      "expiry under 5 minutes",
      { amount: "1", currency: "USD", expiresInMinutes: 4 },
      "parameter_invalid",
      "expiresInMinutes",
    ],
    [
      "expiry over a day",
      { amount: "1", currency: "USD", expiresInMinutes: 1441 },
      "parameter_invalid",
      "expiresInMinutes",
    ],
    [
      "fractional expiry",
      { amount: "1", currency: "USD", expiresInMinutes: 7.5 },
      "parameter_invalid",
      "expiresInMinutes",
    ],
    [
      "expiry as a string",
      { amount: "1", currency: "USD", expiresInMinutes: "10" },
      "parameter_invalid",
      "expiresInMinutes",
    ],
    ["an unknown field", { amount: "1", currency: "USD", lineItems: [] }, "parameter_unknown", "lineItems"],
    ["a body that is an array", [], "parameter_invalid", undefined],
    ["a body that is null", null, "parameter_invalid", undefined],
  ])("rejects %s with 400 and creates nothing", async (_case, body, code, param) => {
    const { auth, organization } = await createTestOrganization();
    const response = await create(auth, body);
    expect(response.status).toBe(400);
    expect(response.json.error).toMatchObject({
      type: "invalid_request_error",
      code,
      ...(param ? { param } : {}),
    });
    expect(await db().checkoutSession.count({ where: { organizationId: organization.id } })).toBe(0);
    expect(await db().idempotencyKey.count({ where: { organizationId: organization.id } })).toBe(0);
  });

  it.each<[string, Record<string, string>, string | undefined, number, string, string | undefined]>([
    [
      "text/plain",
      { "content-type": "text/plain" },
      '{"amount":"1","currency":"USD"}',
      415,
      "unsupported_media_type",
      undefined,
    ],
    ["no content type", {}, '{"amount":"1","currency":"USD"}', 415, "unsupported_media_type", undefined],
    ["malformed JSON", { "content-type": "application/json" }, '{"amount":', 400, "invalid_json", undefined],
    [
      "an oversized body",
      { "content-type": "application/json" },
      JSON.stringify({ amount: "1", currency: "USD", description: "x".repeat(70_000) }),
      413,
      "body_too_large",
      undefined,
    ],
  ])("answers %s with %i", async (_case, headers, body, status, code, param) => {
    const { auth } = await createTestOrganization();
    const response = await callRoute(POST, path, {
      headers: { ...auth, ...headers, "idempotency-key": newKey() },
      body,
    });
    expect(response.status).toBe(status);
    expect(response.json.error.code).toBe(code);
    expect(response.json.error.param).toBe(param);
  });

  it.each<[string, string | null, string]>([
    ["missing", null, "idempotency_key_required"],
    ["15 characters", "k".repeat(15), "idempotency_key_invalid"],
    ["201 characters", "k".repeat(201), "idempotency_key_invalid"],
    ["with a space", "order 1042 attempt 1", "idempotency_key_invalid"],
  ])("rejects an Idempotency-Key that is %s", async (_case, key, code) => {
    const { auth, organization } = await createTestOrganization();
    const response = await create(auth, { amount: "1", currency: "USD" }, key);
    expect(response.status).toBe(400);
    expect(response.json.error).toMatchObject({ code, param: "Idempotency-Key" });
    expect(await db().checkoutSession.count({ where: { organizationId: organization.id } })).toBe(0);
  });

  it("accepts keys of exactly 16 and 200 characters", async () => {
    const { auth } = await createTestOrganization();
    expect((await create(auth, { amount: "1", currency: "USD" }, "k".repeat(16))).status).toBe(200);
    expect((await create(auth, { amount: "1", currency: "USD" }, "k".repeat(200))).status).toBe(200);
  });
});

describe("idempotency", () => {
  it("returns the original response for the same key and body, in any key order", async () => {
    const { auth, organization } = await createTestOrganization();
    const key = newKey();
    const first = await create(auth, { amount: "5", currency: "USD", metadata: { a: 1, b: 2 } }, key);
    const replay = await create(auth, { metadata: { b: 2, a: 1 }, currency: "USD", amount: "5" }, key);
    expect(replay.status).toBe(200);
    expect(replay.text).toBe(first.text);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(await db().checkoutSession.count({ where: { organizationId: organization.id } })).toBe(1);
  });

  it("answers 409 for the same key with a different body", async () => {
    const { auth, organization } = await createTestOrganization();
    const key = newKey();
    await create(auth, { amount: "5", currency: "USD" }, key);
    const conflict = await create(auth, { amount: "6", currency: "USD" }, key);
    expect(conflict.status).toBe(409);
    expect(conflict.json.error).toMatchObject({ type: "idempotency_error", code: "idempotency_key_reused" });
    expect(await db().checkoutSession.count({ where: { organizationId: organization.id } })).toBe(1);
  });

  it("scopes keys to the organization", async () => {
    const first = await createTestOrganization();
    const second = await createTestOrganization();
    const key = newKey();
    const a = await create(first.auth, { amount: "5", currency: "USD" }, key);
    const b = await create(second.auth, { amount: "5", currency: "USD" }, key);
    expect(b.status).toBe(200);
    expect(b.json.id).not.toBe(a.json.id);
  });

  it("creates exactly one session for 50 identical concurrent requests", async () => {
    const { auth, organization } = await createTestOrganization();
    const key = newKey();
    const body = { amount: "12.34", currency: "USD", merchantOrderId: "race" };
    const responses = await Promise.all(Array.from({ length: 50 }, () => create(auth, body, key)));
    expect(responses.map((response) => response.status)).toEqual(Array(50).fill(200));
    expect(new Set(responses.map((response) => response.text)).size).toBe(1);
    expect(await db().checkoutSession.count({ where: { organizationId: organization.id } })).toBe(1);
  });

  it("lets one of 50 concurrent different bodies win and answers the rest 409", async () => {
    const { auth, organization } = await createTestOrganization();
    const key = newKey();
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => create(auth, { amount: `${i + 1}`, currency: "USD" }, key)),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(49);
    expect(await db().checkoutSession.count({ where: { organizationId: organization.id } })).toBe(1);
  });
});

describe("POST /api/checkout-sessions (paylink-backed)", () => {
  it("copies the paylink's price and works without an Idempotency-Key", async () => {
    const { auth, organization } = await createTestOrganization();
    const paylink = await createPaylink(db(), organization.id, {
      name: "T-shirt",
      amount: "25",
      currency: "EUR",
      enabled: true,
    });
    const response = await create(
      auth,
      {
        paylinkId: paylink.id,
        customerEmail: "b@example.com",
        successUrl: "https://s.example/{CHECKOUT_SESSION_ID}",
      },
      null,
    );
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({
      paylinkId: paylink.id,
      amount: "25.00",
      currency: "EUR",
      description: "T-shirt",
      successUrl: `https://s.example/${response.json.id}`,
    });
  });

  it.each<[string, (paylinkId: string) => unknown, number, string, string]>([
    ["an amount", (id) => ({ paylinkId: id, amount: "1" }), 400, "parameter_not_allowed", "amount"],
    ["a currency", (id) => ({ paylinkId: id, currency: "USD" }), 400, "parameter_not_allowed", "currency"],
    ["a malformed paylink id", () => ({ paylinkId: "abc" }), 400, "parameter_invalid", "paylinkId"],
    [
      "an unknown paylink",
      () => ({ paylinkId: "6f1c1c8e-7d5a-4c63-9d53-2a3b9b1e0c11" }),
      404,
      "resource_missing",
      "paylinkId",
    ],
  ])("rejects %s", async (_case, body, status, code, param) => {
    const { auth, organization } = await createTestOrganization();
    const paylink = await createPaylink(db(), organization.id, {
      name: "P",
      amount: "5",
      currency: "USD",
      enabled: true,
    });
    const response = await create(auth, body(paylink.id));
    expect(response.status).toBe(status);
    expect(response.json.error).toMatchObject({ code, param });
    expect(await db().checkoutSession.count({ where: { organizationId: organization.id } })).toBe(0);
  });

  it("refuses a disabled paylink and another organization's paylink", async () => {
    const owner = await createTestOrganization();
    const other = await createTestOrganization();
    const disabled = await createPaylink(db(), owner.organization.id, {
      name: "Off",
      amount: "5",
      currency: "USD",
      enabled: false,
    });
    const foreign = await createPaylink(db(), other.organization.id, {
      name: "Theirs",
      amount: "5",
      currency: "USD",
      enabled: true,
    });
    const off = await create(owner.auth, { paylinkId: disabled.id });
    expect(off.status).toBe(400);
    expect(off.json.error).toMatchObject({ code: "paylink_disabled", param: "paylinkId" });
    const theirs = await create(owner.auth, { paylinkId: foreign.id });
    expect(theirs.status).toBe(404);
  });
});

describe("GET /api/checkout-sessions/{id}", () => {
  it("returns the 2.4 view to the owner and 404 to anyone else", async () => {
    const owner = await createTestOrganization();
    const other = await createTestOrganization();
    const created = await create(owner.auth, {
      amount: "3",
      currency: "GBP",
      customerEmail: "c@example.com",
      metadata: { sku: "A1" },
    });
    const own = await callRoute(retrieve, `${path}/${created.json.id}`, {
      headers: owner.auth,
      params: { id: created.json.id },
    });
    expect(own.status).toBe(200);
    const { paymentRequest, ...session } = created.json;
    expect(paymentRequest).toBeNull();
    expect(own.json).toEqual({
      ...session,
      customerEmail: "c@example.com",
      customerName: null,
      metadata: { sku: "A1" },
      payment: null,
    });
    for (const id of [created.json.id, "ycs_doesnotexist0000000000", "not-an-id"]) {
      const response = await callRoute(retrieve, `${path}/${id}`, { headers: other.auth, params: { id } });
      expect(response.status).toBe(404);
      expect(response.json.error).toMatchObject({ type: "not_found_error", code: "resource_missing" });
    }
  });

  it("shows and stores EXPIRED once expiresAt has passed, job or no job", async () => {
    const { auth } = await createTestOrganization();
    const created = await create(auth, { amount: "3", currency: "USD", expiresInMinutes: 5 });
    await db().checkoutSession.update({
      where: { id: created.json.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const response = await callRoute(retrieve, `${path}/${created.json.id}`, {
      headers: auth,
      params: { id: created.json.id },
    });
    expect(response.json.status).toBe("EXPIRED");
    expect((await db().checkoutSession.findUniqueOrThrow({ where: { id: created.json.id } })).status).toBe(
      "EXPIRED",
    );
  });
});
