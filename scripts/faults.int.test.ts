import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { config } from "@/lib/config";
import { db, disconnectDb } from "@/lib/db/client";
import { applyMigrations } from "@/lib/db/schema-engine";
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
