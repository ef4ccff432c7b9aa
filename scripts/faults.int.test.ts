import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { decodePaymentRequiredHeader } from "@x402/core/http";
import { parseUnits } from "viem";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { config } from "@/lib/config";
import { db, disconnectDb } from "@/lib/db/client";
import { applyMigrations } from "@/lib/db/schema-engine";
import { recordEvents } from "@/lib/events/record-event";
import { startBackgroundJobs, stopBackgroundJobs } from "@/lib/tasks/start-background-jobs";
import { createWebhookEndpoint } from "@/lib/webhooks/create-webhook-endpoint";
import { appRoutes } from "@/scripts/test-support/app-routes";
import { createTestOrganization } from "@/scripts/test-support/fixtures";
import { startLimitedRpc } from "@/scripts/test-support/limited-rpc";
import {
  type RestartablePostgres,
  startRestartablePostgres,
} from "@/scripts/test-support/restartable-postgres";
import { serveApp } from "@/scripts/test-support/serve-route";
import { startTestDevnet, type TestDevnet } from "@/scripts/test-support/test-devnet";
import { startWebhookReceiver } from "@/scripts/test-support/webhook-receiver";
import { sendX402Payment, x402Agent } from "@/scripts/test-support/x402-app";

// The dependency faults an operator meets, on the app's own routes and in-process job engine:
// PostgreSQL restarted under traffic (a server of this file's own, Debian's or the embedded one as
// the run uses) and the chain's RPC unreachable while buyers pay (a proxy in front of a real
// devnet). Each time: quick 503s (never a 500, never a hang), health says what is wrong, the
// service recovers by itself, and nothing is lost or doubled. docs/operations.md, "Faults".

const kind = inject("testDatabase").mode;
let postgres: RestartablePostgres;
let devnet: TestDevnet;
let rpc: Awaited<ReturnType<typeof startLimitedRpc>>;
let app: Awaited<ReturnType<typeof serveApp>>;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let merchant: Awaited<ReturnType<typeof createTestOrganization>>;
const children: ChildProcess[] = [];

beforeAll(async () => {
  postgres = await startRestartablePostgres(kind);
  await applyMigrations(postgres.url);
  // Nothing has read the configuration yet: the app runs on this server, through the proxy.
  process.env.DATABASE_URL = postgres.url;
  process.env.DATABASE_POOL_SIZE = kind === "embedded" ? "1" : "10";
  process.env.SERVICE_RATE_LIMIT_API_PER_SECOND = "100000";
  process.env.SERVICE_RATE_LIMIT_CHECKOUTS_PER_CLIENT_PER_HOUR = "100000";
  process.env.SERVICE_RATE_LIMIT_PUBLIC_PER_MINUTE = "100000";
  process.env.SERVICE_HEALTH_CHAIN_UNREACHABLE_SECONDS = "5";
  devnet = await startTestDevnet({ confirmations: 1 });
  rpc = await startLimitedRpc(devnet.rpcUrl, {});
  process.env.SERVICE_NETWORKS = JSON.stringify([{ ...devnet.network, rpcUrl: rpc.url }]);
  process.env.SERVICE_SWEEPER = "separate";

  receiver = await startWebhookReceiver();
  merchant = await createTestOrganization("Fault Store");
  await createWebhookEndpoint(db(), merchant.organization.id, {
    name: "Shop",
    url: receiver.url,
    adapter: "NONE",
    enabled: true,
  });
  startBackgroundJobs();
  app = await serveApp(await appRoutes(), config().baseUrl);
}, 120_000);

afterAll(async () => {
  // app.close() throws on a broken contract: everything started here still stops.
  for (const child of children) killGroup(child);
  try {
    await stopBackgroundJobs();
    await app?.close();
  } finally {
    await receiver?.close();
    await rpc?.close();
    await devnet?.stop();
    await disconnectDb();
    await postgres?.close();
  }
});

type Answer = { status: number; ms: number; body: Record<string, unknown>; retryAfter: string | null };

async function call(method: string, path: string, body?: unknown): Promise<Answer> {
  const started = performance.now();
  const response = await fetch(`${app.url}${path}`, {
    method,
    headers: {
      ...merchant.auth,
      "content-type": "application/json",
      ...(method === "POST" ? { "idempotency-key": crypto.randomUUID() } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  return {
    status: response.status,
    ms: performance.now() - started,
    body: await response.json(),
    retryAfter: response.headers.get("retry-after"),
  };
}

const createSession = () => call("POST", "/api/checkout-sessions", { amount: "12.50", currency: "USD" });

/** A buyer's invoice: a session, then its USDC payment started on the devnet. */
async function openPayment() {
  const session = await createSession();
  expect(session.status).toBe(200);
  const payment = await call("POST", "/api/public/payments", {
    checkoutSessionId: session.body.id,
    network: "devnet",
    token: "USDC",
  });
  expect(payment.status, JSON.stringify(payment.body)).toBe(201);
  return payment.body as { id: string; depositAddress: string; amountDue: string };
}

/** Sessions created every 50 ms until stopped, each answer kept. */
function traffic() {
  const answers: Answer[] = [];
  const pending: Promise<void>[] = [];
  const timer = setInterval(() => {
    pending.push(createSession().then((answer) => void answers.push(answer)));
  }, 50);
  return {
    answers,
    stop: async () => {
      clearInterval(timer);
      await Promise.all(pending);
      return answers;
    },
  };
}

const invoiceStatuses = async (ids: string[]) =>
  (await db().invoice.findMany({ where: { id: { in: ids } }, select: { status: true } })).map(
    (row) => row.status,
  );

/** Every event recorded for the merchant reached the receiver, and none twice. */
async function expectEachEventDeliveredOnce() {
  const events = await db().event.findMany({ where: { organizationId: merchant.organization.id } });
  await expect
    .poll(() => new Set(receiver.received.map((request) => request.headers["x-service-event-id"])).size, {
      timeout: 30_000,
    })
    .toBe(events.length);
  const answered = receiver.received.filter((request) => request.outcome === "answered");
  const ids = answered.map((request) => request.headers["x-service-event-id"]);
  expect(new Set(ids).size).toBe(ids.length);
  expect(new Set(ids)).toEqual(new Set(events.map((event) => event.id)));
}

describe("PostgreSQL restarted under traffic", () => {
  it("answers 503 with Retry-After while it is down, recovers by itself, and loses nothing", async () => {
    const payments = await Promise.all([openPayment(), openPayment()]);
    const load = traffic();
    await new Promise((resolve) => setTimeout(resolve, 1_000));

    await postgres.stop();
    // The buyers pay while the database is down.
    for (const payment of payments) await devnet.mintUsdc(payment.depositAddress, payment.amountDue);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const down = await call("GET", "/api/health");
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ status: "failing", checks: { database: "failing" } });
    expect(down.ms).toBeLessThan(2_000);

    await postgres.start();
    const back = performance.now();
    await expect
      .poll(async () => (await createSession()).status, { timeout: 10_000, interval: 100 })
      .toBe(200);
    const recoveredMs = performance.now() - back;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const answers = await load.stop();

    const statuses = answers.map((answer) => answer.status);
    expect(new Set(statuses)).toEqual(new Set([200, 503]));
    for (const answer of answers.filter(({ status }) => status === 503)) {
      expect(answer.body).toMatchObject({ error: { type: "api_error", code: "service_unavailable" } });
      expect(Number(answer.retryAfter)).toBeGreaterThan(0);
    }
    // Quick answers, never a hang: a refused connection fails at once.
    expect(Math.max(...answers.map((answer) => answer.ms))).toBeLessThan(5_000);
    expect(recoveredMs).toBeLessThan(5_000);

    // Every create that answered 200 exists.
    const created = answers.filter(({ status }) => status === 200).map(({ body }) => body.id as string);
    expect(await db().checkoutSession.count({ where: { id: { in: created } } })).toBe(created.length);
    // The payments made meanwhile confirm, and every event is delivered once.
    await devnet.mine(2);
    await expect
      .poll(() => invoiceStatuses(payments.map((payment) => payment.id)), { timeout: 30_000 })
      .toEqual(["CONFIRMED", "CONFIRMED"]);
    await expectEachEventDeliveredOnce();
    expect((await call("GET", "/api/health")).status).toBe(200);
  });
});

describe("the chain's RPC unreachable while buyers pay", () => {
  it("reports the chain degraded, then confirms and announces every payment once", async () => {
    const payments = await Promise.all([openPayment(), openPayment(), openPayment()]);
    await rpc.cut();
    for (const payment of payments) await devnet.mintUsdc(payment.depositAddress, payment.amountDue);
    await devnet.mine(2);

    await expect
      .poll(async () => (await call("GET", "/api/health")).body, { timeout: 20_000, interval: 500 })
      .toMatchObject({ status: "degraded", checks: { database: "ok", watchers: "degraded" } });
    // The API still serves what needs no chain.
    expect((await createSession()).status).toBe(200);
    expect(await invoiceStatuses(payments.map((payment) => payment.id))).not.toContain("CONFIRMED");

    await rpc.restore();
    await expect
      .poll(() => invoiceStatuses(payments.map((payment) => payment.id)), { timeout: 30_000 })
      .toEqual(["CONFIRMED", "CONFIRMED", "CONFIRMED"]);
    await expect
      .poll(async () => (await call("GET", "/api/health")).body.status, { timeout: 15_000 })
      .toBe("ok");
    await expectEachEventDeliveredOnce();
  });
});

/** SIGKILL a child's whole process group: no shutdown hooks, whatever it started dies with it. */
function killGroup(child: ChildProcess) {
  try {
    process.kill(-(child.pid as number), "SIGKILL");
  } catch {
    // Already gone.
  }
}

/** scripts/test-support/app-process.ts on this file's database and devnet; resolves to its URL. */
async function startAppProcess() {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/test-support/app-process.ts"], {
    stdio: ["ignore", "pipe", "ignore"],
    detached: true,
    env: { ...process.env, SERVICE_SWEEPER: "in-process", LOG_LEVEL: "silent" },
  });
  children.push(child);
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString("utf8");
      if (out.includes("\n")) resolve(out.split("\n")[0]);
    });
    child.once("exit", (code) => reject(new Error(`app process exited (${code})`)));
  });
  return { child, url };
}

// The app as a process of its own (API routes and job engine, scripts/test-support/app-process.ts),
// SIGKILLed with webhook attempts cut off mid-answer and an x402 settlement's transfer in the
// mempool, then started again on the same database and devnet. Most of the time is the two
// startups (tsx loading every route, about 30 s each on a loaded 2-core machine). Sweeps and
// refunds killed mid-transfer are not held in flight here yet: scripts/sweeper.int.test.ts and
// lib/refunds/refunds.int.test.ts kill their own processes at that moment.
describe("the app killed (SIGKILL) with side effects in flight", () => {
  it("delivers each webhook event and settles the x402 payment once after a restart", async () => {
    // Only the child process works from here on: this file's in-process engine stops.
    await stopBackgroundJobs();
    const shop = await createTestOrganization("Kill Store");
    const held = await startWebhookReceiver();
    // Every answer held until the process is dead: its attempts are cut off in flight.
    held.script(...Array.from({ length: 50 }, () => ({ status: 200, delayMs: 600_000 })));
    await createWebhookEndpoint(db(), shop.organization.id, {
      name: "Shop",
      url: held.url,
      adapter: "NONE",
      enabled: true,
    });
    await db().$transaction((tx) =>
      recordEvents(
        tx,
        Array.from({ length: 5 }, () => ({
          organizationId: shop.organization.id,
          type: "invoice.created" as const,
          data: {},
        })),
      ),
    );
    const paylink = await db().paylink.create({
      data: {
        id: randomUUID(),
        organizationId: shop.organization.id,
        name: "API credits",
        amount: "2.00",
        currency: "USD",
      },
    });
    const buyer = await x402Agent(devnet, "10");

    let running = await startAppProcess();
    const resource = `${running.url}/api/x402/paylinks/${paylink.id}`;
    const quote = await fetch(resource);
    const payment = await buyer.client.createPaymentPayload(
      decodePaymentRequiredHeader(quote.headers.get("PAYMENT-REQUIRED") as string),
    );
    // Blocks only when the test mines them: the settlement's transfer waits in the mempool.
    await devnet.rpc("evm_setAutomine", [false]);
    const firstCopy = sendX402Payment(resource, payment).catch(() => undefined);
    const settlement = () =>
      db().x402Settlement.findFirst({ where: { organizationId: shop.organization.id } });
    const pending = async () =>
      ((await devnet.rpc("eth_getBlockByNumber", ["pending", true])) as { transactions: { to: string }[] })
        .transactions;
    // The facilitator's wallet may be topped up with gas first: mine that, never the transfer.
    await expect
      .poll(
        async () => {
          const transfer = (await pending()).some(
            (transaction) => transaction.to?.toLowerCase() === devnet.usdc.toLowerCase(),
          );
          if (!transfer && (await pending()).length > 0) await devnet.rpc("evm_mine");
          return `${(await settlement())?.status} ${transfer}`;
        },
        { timeout: 30_000, interval: 250 },
      )
      .toBe("SETTLING true");
    await expect.poll(() => held.received.length, { timeout: 30_000 }).toBeGreaterThan(0);

    killGroup(running.child);
    await new Promise((resolve) => running.child.once("exit", resolve));
    await firstCopy;
    expect(held.received.every((request) => request.outcome !== "answered")).toBe(true);
    await devnet.rpc("evm_setAutomine", [true]);
    await devnet.mine(1);
    // The dead process's claims lapse within their lease (two minutes for a delivery, 30 s for
    // a settlement, 60 s for a task): lapse them now, as the clock would.
    await db().webhookDelivery.updateMany({
      where: { lockedUntil: { not: null } },
      data: { lockedUntil: new Date(Date.now() - 1000) },
    });
    await db().$executeRaw`
      UPDATE "X402Settlement" SET "updatedAt" = now() - interval '1 minute' WHERE "status" = 'SETTLING'`;
    await db().jobLease.updateMany({ data: { expiresAt: new Date(Date.now() - 1000) } });
    held.answerDelayedNow();

    running = await startAppProcess();
    // The buyer's client sends its payment again: decided from the chain, not settled twice.
    const again = await sendX402Payment(`${running.url}/api/x402/paylinks/${paylink.id}`, payment);
    expect(again.status).toBe(200);
    const row = await settlement();
    expect(row).toMatchObject({ status: "SETTLED" });
    expect(await db().x402Settlement.count({ where: { organizationId: shop.organization.id } })).toBe(1);
    expect(await devnet.usdcBalance(buyer.account.address)).toBe(parseUnits("8", 6));
    const invoice = await db().invoice.findUniqueOrThrow({ where: { id: row?.invoiceId } });
    expect(await devnet.usdcBalance(invoice.depositAddress)).toBe(parseUnits("2", 6));

    // Every event of the store's reached the receiver and was answered once.
    const events = await db().event.findMany({ where: { organizationId: shop.organization.id } });
    expect(events.length).toBeGreaterThanOrEqual(6);
    const answeredIds = () =>
      held.received
        .filter((request) => request.outcome === "answered")
        .map((request) => request.headers["x-service-event-id"]);
    await expect.poll(() => new Set(answeredIds()).size, { timeout: 30_000 }).toBe(events.length);
    expect(answeredIds()).toHaveLength(events.length);
    expect(new Set(answeredIds())).toEqual(new Set(events.map((event) => event.id)));
    killGroup(running.child);
    await held.close();
  }, 180_000);
});
