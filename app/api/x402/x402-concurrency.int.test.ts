// Ten concurrent copies of one x402 payment on ONE database connection (as the zero-setup start
// runs on its embedded database: scripts/start.ts sets DATABASE_POOL_SIZE=1 there),
// while the settlement waits on a chain that has not mined it yet: the rest of the app answers
// meanwhile, the money moves once, and every copy gets the one result. Real HTTP, a real Hardhat
// node, real PostgreSQL, the official x402 client, this process's built-in facilitator.
process.env.DATABASE_POOL_SIZE = "1";
process.env.SERVICE_SWEEPER = "in-process";
process.env.SERVICE_RATE_LIMIT_X402_PER_CLIENT_PER_MINUTE = "1000";

import { randomUUID } from "node:crypto";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import { parseUnits } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as createSession } from "@/app/api/checkout-sessions/route";
import { GET as health } from "@/app/api/health/route";
import { config } from "@/lib/config";
import { db } from "@/lib/db/client";
import { metrics } from "@/lib/metrics/metrics";
import { createTestOrganization } from "@/scripts/test-support/fixtures";
import { serveApp } from "@/scripts/test-support/serve-route";
import { startTestDevnet, type TestDevnet } from "@/scripts/test-support/test-devnet";
import { sendX402Payment, serveX402App, type X402App, x402Agent } from "@/scripts/test-support/x402-app";

let devnet: TestDevnet;
let app: X402App;
let rest: Awaited<ReturnType<typeof serveApp>>;

beforeAll(async () => {
  devnet = await startTestDevnet({ confirmations: 1 });
  app = await serveX402App();
  rest = await serveApp(
    [
      { template: "/api/health", handlers: { GET: health as never } },
      { template: "/api/checkout-sessions", handlers: { POST: createSession as never } },
    ],
    config().baseUrl,
  );
}, 120_000);
afterAll(async () => {
  await devnet?.rpc("evm_setAutomine", [true]);
  await devnet?.mine(1);
  await rest?.close();
  await app?.close();
  await devnet?.stop();
});

/** `work`'s answer, or a failure when it takes longer than `ms` (the app would be stalled). */
async function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

describe("ten concurrent copies of one x402 payment on one database connection", () => {
  it("move the money once, give every copy the one result, and leave the app answering while the chain waits", async () => {
    expect(config().databasePoolSize).toBe(1);
    // The facilitator wallet's first gas comes from a first payment, mined as usual.
    const first = await app.paylink("0.50");
    expect((await (await x402Agent(devnet, "1")).pay(first.url)).status).toBe(200);

    const { url, organization } = await app.paylink("0.01");
    const { account, client } = await x402Agent(devnet, "1");
    const quote = await fetch(url);
    const paymentRequired = decodePaymentRequiredHeader(quote.headers.get("PAYMENT-REQUIRED") as string);
    const payment = await client.createPaymentPayload(paymentRequired);
    // Copies that differ in what the signature does not cover share the first copy's attempt: one verification.
    const variant = (index: number) =>
      index < 3
        ? payment
        : {
            ...payment,
            accepted: { ...payment.accepted, extra: { ...payment.accepted.extra, [`copy${index}`]: 1 } },
          };
    const verifications = async () =>
      (await metrics().x402Verifications.get()).values.reduce((sum, { value }) => sum + value, 0);
    const verifiedBefore = await verifications();

    // The node now holds the settlement's transaction unmined: the chain wait lasts until we mine.
    await devnet.rpc("evm_setAutomine", [false]);
    let settled = false;
    const copies = Promise.all(
      Array.from({ length: 10 }, (_, index) => sendX402Payment(url, variant(index))),
    ).finally(() => {
      settled = true;
    });
    for (let waited = 0; (await devnet.pendingTransactions()).length === 0; waited += 50) {
      if (waited > 20_000) throw new Error("the settlement was never submitted");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    // While the chain waits: health and a session create answer. Nothing is mined until the test
    // says so, so an app that held the connection would never answer: the bound is a hang guard
    // wide enough for the embedded pass beside the rest of CI on 2 cores, not a speed check.
    const merchant = await createTestOrganization();
    const [healthy, created] = await within(
      15_000,
      Promise.all([
        fetch(`${rest.url}/api/health`),
        fetch(`${rest.url}/api/checkout-sessions`, {
          method: "POST",
          headers: { ...merchant.auth, "content-type": "application/json", "idempotency-key": randomUUID() },
          body: JSON.stringify({ amount: "3.00", currency: "USD" }),
        }),
      ]),
    );
    expect((await healthy.json()).checks.database).toBe("ok");
    expect(created.status).toBe(200);
    expect(settled).toBe(false);

    await devnet.rpc("evm_setAutomine", [true]);
    await devnet.mine(1);
    const answers = await copies;
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    const results = new Set(answers.map((answer) => answer.headers.get("PAYMENT-RESPONSE")));
    expect(results.size).toBe(1);
    expect(await verifications()).toBe(verifiedBefore + 1);

    expect(await devnet.usdcBalance(account.address)).toBe(parseUnits("0.99", 6));
    const invoice = await db().invoice.findFirstOrThrow({ where: { organizationId: organization.id } });
    expect(await devnet.usdcBalance(invoice.depositAddress)).toBe(parseUnits("0.01", 6));
    expect(await db().invoice.count({ where: { organizationId: organization.id } })).toBe(1);
    expect(await db().x402Settlement.findMany({ where: { organizationId: organization.id } })).toMatchObject([
      { status: "SETTLED" },
    ]);
  });
});
