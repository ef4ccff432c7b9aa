// Small buyer budgets, read from configuration on first use in this file's process.
process.env.SERVICE_RATE_LIMIT_CHECKOUTS_PER_CLIENT_PER_HOUR = "3";
process.env.SERVICE_RATE_LIMIT_CHECKOUTS_PER_PAYLINK_PER_HOUR = "5";
process.env.SERVICE_RATE_LIMIT_PAYMENT_STARTS_PER_SESSION_PER_HOUR = "2";
process.env.SERVICE_HD_MNEMONIC = "test test test test test test test test test test test junk";
process.env.SERVICE_NETWORKS = JSON.stringify([
  devnetNetwork({ rpcUrl: "http://127.0.0.1:8545", usdc: `0x${"5".repeat(40)}`, confirmations: 2 }),
]);

import { describe, expect, it } from "vitest";
import { POST as createSession } from "@/app/api/checkout-sessions/route";
import { POST as createPaylink } from "@/app/api/private/paylinks/create/route";
import { POST as startPayment } from "@/app/api/public/payments/route";
import { GET as openPaylink } from "@/app/pay/[id]/start/route";
import { devnetNetwork } from "@/lib/chains/devnet";
import { callRoute } from "@/scripts/test-support/call-route";
import { createTestOrganization } from "@/scripts/test-support/fixtures";
import { db } from "../db/client";
import { clientAddressHeader } from "../net/client-address";

async function paylink() {
  const merchant = await createTestOrganization();
  const created = await callRoute(createPaylink, "/api/private/paylinks/create", {
    headers: merchant.auth,
    body: { name: "Plan", amount: "10.00", currency: "USD" },
  });
  expect(created.status).toBe(201);
  return { ...merchant, paylinkId: created.json.data.id as string };
}

const open = (paylinkId: string, client: string) =>
  callRoute(openPaylink, `/pay/${paylinkId}`, {
    headers: { [clientAddressHeader]: client },
    params: { id: paylinkId },
  });

const start = (checkoutSessionId: string, client: string) =>
  callRoute(startPayment, "/api/public/payments", {
    headers: { [clientAddressHeader]: client },
    body: { checkoutSessionId, network: "devnet", token: "USDC" },
  });

const sessionsOf = (paylinkId: string) => db().checkoutSession.count({ where: { paylinkId } });
const derivationIndex = async () =>
  (await db().derivationCounter.findUnique({ where: { network: "devnet" } }))?.nextIndex ?? 0;

function expectLimited(response: Awaited<ReturnType<typeof callRoute>>) {
  expect(response.status).toBe(429);
  expect(response.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
  expect(response.json.error).toMatchObject({ type: "rate_limit_error", code: "rate_limited" });
}

describe("buyer start limits", () => {
  it("opening a paylink makes a session until the client's budget is spent, then 429 and no row", async () => {
    const { paylinkId } = await paylink();
    const opened = [];
    for (let i = 0; i < 3; i++) opened.push(await open(paylinkId, "203.0.113.20"));
    expect(opened.map((response) => response.status)).toEqual([303, 303, 303]);
    expect(opened[0].headers.get("location")).toMatch(/\/pay\/ycs_[0-9A-Za-z]{24}$/);

    expectLimited(await open(paylinkId, "203.0.113.20"));
    expect(await sessionsOf(paylinkId)).toBe(3);
  });

  it("one paylink opens a bounded number of sessions, whichever clients ask", async () => {
    const { paylinkId } = await paylink();
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await open(paylinkId, `198.51.100.${i + 1}`)).status);
    expect(statuses).toEqual([303, 303, 303, 303, 303, 429]);
    expect(await sessionsOf(paylinkId)).toBe(5);
  });

  it("counts an IPv6 client by its /64", async () => {
    const { paylinkId } = await paylink();
    const statuses = [];
    for (const host of ["1", "2", "3", "4"])
      statuses.push((await open(paylinkId, `2001:db8:7:7::${host}`)).status);
    expect(statuses).toEqual([303, 303, 303, 429]);
    expect(await sessionsOf(paylinkId)).toBe(3);
  });

  it("payment starts are limited per client and per session, leaving no invoice or index behind", async () => {
    const merchant = await createTestOrganization();
    const sessions = [];
    for (let i = 0; i < 4; i++) {
      const created = await callRoute(createSession, "/api/checkout-sessions", {
        headers: { ...merchant.auth, "idempotency-key": `limits-${i}-${Date.now()}` },
        body: { amount: "5.00", currency: "USD" },
      });
      sessions.push(created.json.id as string);
    }
    // Per session: the same start repeated (it answers the same invoice) runs out at 2.
    expect((await start(sessions[0], "192.0.2.31")).status).toBe(201);
    expect((await start(sessions[0], "192.0.2.32")).status).toBe(201);
    expectLimited(await start(sessions[0], "192.0.2.33"));

    // Per client: three starts, then a fourth session gets no invoice and no deposit index.
    for (const session of sessions.slice(1)) expect((await start(session, "192.0.2.40")).status).toBe(201);
    const index = await derivationIndex();
    const fifth = await callRoute(createSession, "/api/checkout-sessions", {
      headers: { ...merchant.auth, "idempotency-key": `limits-5-${Date.now()}` },
      body: { amount: "5.00", currency: "USD" },
    });
    expectLimited(await start(fifth.json.id, "192.0.2.40"));
    expect(await db().invoice.count({ where: { checkoutSessionId: fifth.json.id } })).toBe(0);
    expect(await derivationIndex()).toBe(index);
  });
});
