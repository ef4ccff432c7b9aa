// The x402 resource routes (a paylink's, a merchant session's) and the OpenAPI document over real
// HTTP at the configured base URL, with what their tests pay: merchants' paylinks and sessions,
// and agents holding test USDC on the devnet, paying with the official client.
import { randomUUID } from "node:crypto";
import { encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload } from "@x402/core/types";
import { wrapFetchWithPayment } from "@x402/fetch";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll } from "vitest";
import { POST as createSession } from "../../app/api/checkout-sessions/route";
import { GET as openApiRoute } from "../../app/api/openapi.json/route";
import { GET as checkoutSessionRoute } from "../../app/api/x402/checkout-sessions/[id]/route";
import { GET as paylinkRoute } from "../../app/api/x402/paylinks/[id]/route";
import { config } from "../../lib/config";
import { db } from "../../lib/db/client";
import { callRoute } from "./call-route";
import { createTestOrganization } from "./fixtures";
import { serveApp } from "./serve-route";
import { startTestDevnet, type TestDevnet } from "./test-devnet";
import { devnetX402Client } from "./x402-buyer";

/** The x402 routes served, and a merchant's paylink or session to pay at them. */
export async function serveX402App() {
  const app = await serveApp(
    [
      { template: "/api/x402/paylinks/{id}", handlers: { GET: paylinkRoute as never } },
      { template: "/api/x402/checkout-sessions/{id}", handlers: { GET: checkoutSessionRoute as never } },
      // The discovery document beside them, as MPP clients and `mppx validate` look for it.
      { template: "/api/openapi.json", handlers: { GET: openApiRoute as never } },
    ],
    config().baseUrl,
  );
  return {
    ...app,
    /** A new merchant's paylink and its x402 URL. */
    async paylink(
      amount = "5.00",
      recurring: { recurringInterval: "month"; recurringIntervalCount: number } | null = null,
      currency = "USD",
    ) {
      const merchant = await createTestOrganization();
      const row = await db().paylink.create({
        data: {
          id: randomUUID(),
          organizationId: merchant.organization.id,
          name: "API credits",
          description: "1,000 API calls",
          amount,
          currency,
          ...recurring,
        },
      });
      return { ...merchant, paylink: row, url: `${app.url}/api/x402/paylinks/${row.id}` };
    },
    /** A new merchant's checkout session, made through the API, and its x402 URL. */
    async session(amount = "3.00") {
      const merchant = await createTestOrganization();
      const created = await callRoute(createSession, "/api/checkout-sessions", {
        headers: { ...merchant.auth, "idempotency-key": randomUUID() },
        body: { amount, currency: "USD" },
      });
      const id = created.json.id as string;
      return { ...merchant, id, url: `${app.url}/api/x402/checkout-sessions/${id}` };
    },
  };
}

export type X402App = Awaited<ReturnType<typeof serveX402App>>;

/** A fresh agent wallet holding `usdc` test USDC, and the official client paying from it. */
export async function x402Agent(devnet: TestDevnet, usdc = "100") {
  const account = privateKeyToAccount(generatePrivateKey());
  if (usdc !== "0") await devnet.mintUsdc(account.address, usdc);
  const client = devnetX402Client(account, devnet.usdc);
  return { account, client, pay: wrapFetchWithPayment(fetch, client) };
}

/** A request to `url` carrying `payment` as its PAYMENT-SIGNATURE. */
export const sendX402Payment = (url: string, payment: PaymentPayload) =>
  fetch(url, { headers: { "PAYMENT-SIGNATURE": encodePaymentSignatureHeader(payment) } });

/**
 * A chain (`start`ed, with its `stop`) and the x402 routes for a test file's tests: started before
 * them, stopped after; read its fields inside the tests.
 */
export function x402ChainTestBed<Chain extends { stop: () => Promise<void> }>(
  start: () => Promise<Chain>,
): { chain: Chain; app: X402App } {
  const bed = {} as { chain: Chain; app: X402App };
  beforeAll(async () => {
    bed.chain = await start();
    bed.app = await serveX402App();
  }, 120_000);
  afterAll(async () => {
    await bed.app?.close();
    await bed.chain?.stop();
  });
  return bed;
}

/** A devnet and the x402 routes for a test file's tests: started before them, stopped after. */
export function x402TestBed(): { devnet: TestDevnet; app: X402App } {
  const bed = x402ChainTestBed(() => startTestDevnet({ confirmations: 1 }));
  return {
    get devnet() {
      return bed.chain;
    },
    get app() {
      return bed.app;
    },
  };
}
