import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as health } from "@/app/api/health/route";
import { createCheckoutSession } from "@/lib/checkout/create-checkout-session";
import { startPayment } from "@/lib/checkout/start-payment";
import { db } from "@/lib/db/client";
import { startPeriodicTask } from "@/lib/jobs/periodic-task";
import { scanNetworksTask } from "@/lib/tasks/background-tasks";
import { deliverDueWebhooks } from "@/lib/webhooks/deliver-due-webhooks";
import { sendTestEvent } from "@/lib/webhooks/send-test-event";
import { callRoute } from "@/scripts/test-support/call-route";
import {
  createTestOrganization,
  createTestReceiverEndpoint,
  createTestSweep,
} from "@/scripts/test-support/fixtures";
import { createTestSubscription } from "@/scripts/test-support/subscription-fixtures";
import { startTestDevnet, type TestDevnet } from "@/scripts/test-support/test-devnet";
import { GET } from "./route";

// Scrapes /api/metrics before and after real work: a paid invoice on a real devnet, a failed
// webhook delivery to a real receiver, and a watcher whose RPC has been stopped.
const token = "metrics-token-for-tests-0123456789";
const auth = { authorization: `Bearer ${token}` };
let devnet: TestDevnet;
let stopWatcher: (() => void) | undefined;

beforeAll(async () => {
  devnet = await startTestDevnet({ confirmations: 1, priceFeeds: false });
  process.env.SERVICE_METRICS_TOKEN = token;
  process.env.SERVICE_HEALTH_MAX_WATCHER_LAG_SECONDS = "5";
  process.env.SERVICE_WEBHOOK_ALLOW_PRIVATE_URLS = "true";
}, 120_000);
afterAll(async () => {
  stopWatcher?.();
  await devnet?.stop();
});

/** Every sample of the scrape, keyed `name{labels}` as Prometheus prints them. */
async function scrape(): Promise<Map<string, number>> {
  const response = await callRoute(GET, "/api/metrics", { headers: auth });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  const samples = new Map<string, number>();
  for (const line of response.text.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const at = line.lastIndexOf(" ");
    samples.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return samples;
}
const sample = (samples: Map<string, number>, key: string) => samples.get(key) ?? 0;

async function until(check: () => Promise<boolean>, timeoutMs: number) {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; ) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error("timed out");
}

describe("GET /api/metrics", () => {
  it.each([
    ["no credential", {}],
    ["a wrong token", { authorization: "Bearer not-the-metrics-token-at-all" }],
    ["the token without Bearer", { authorization: token }],
  ])("refuses %s with 401", async (_, headers) => {
    const response = await callRoute(GET, "/api/metrics", { headers });
    expect(response.status).toBe(401);
    expect(response.json.error.code).toBe("invalid_metrics_token");
    expect(response.text).not.toContain("checkout_");
  });

  it("counts requests by route template and status, never by id", async () => {
    const before = await scrape();
    await callRoute(GET, "/api/metrics", { headers: {} });
    const after = await scrape();
    const key = 'checkout_http_requests_total{method="GET",route="/api/metrics",status="401"}';
    expect(sample(after, key) - sample(before, key)).toBe(1);
    expect(
      sample(after, 'checkout_http_request_duration_seconds_count{method="GET",route="/api/metrics"}'),
    ).toBeGreaterThan(0);
  });

  it("moves the attempt counter and the queue gauges when a delivery fails", async () => {
    const { receiver, organization, endpoint } = await createTestReceiverEndpoint([{ status: 500 }]);
    try {
      const before = await scrape();
      await sendTestEvent(db(), organization.id, endpoint.id);
      const queued = await scrape();
      expect(sample(queued, "checkout_webhook_queue_depth")).toBeGreaterThanOrEqual(1);
      expect(await deliverDueWebhooks(db())).toBeGreaterThanOrEqual(1);
      const after = await scrape();
      const retrying = 'checkout_webhook_attempts_total{outcome="retrying"}';
      expect(sample(after, retrying) - sample(before, retrying)).toBe(1);
      expect(sample(after, 'checkout_webhook_deliveries_open{status="PENDING"}')).toBeGreaterThanOrEqual(1);
      expect(receiver.received).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it("shows subscriptions, sweeps and each gas wallet as the scheduler and the sweeper left them", async () => {
    const before = await scrape();
    const { organization } = await createTestOrganization();
    await createTestSubscription(organization.id, { status: "PAST_DUE" });
    await createTestSweep(organization.id, { status: "FAILED", network: "metrics-net" });
    await db().gasWallet.create({
      data: {
        network: "metrics-net",
        address: "0x00000000000000000000000000000000000000aa",
        balance: "0.0125",
        low: true,
        threshold: "0.05",
        checkedAt: new Date(),
      },
    });
    const after = await scrape();
    const pastDue = 'checkout_subscriptions{status="PAST_DUE"}';
    expect(sample(after, pastDue) - sample(before, pastDue)).toBe(1);
    expect(sample(after, 'checkout_sweeps{network="metrics-net",status="FAILED"}')).toBe(1);
    expect(after.get('checkout_gas_wallet_balance{network="metrics-net"}')).toBe(0.0125);
    expect(after.get('checkout_gas_wallet_low{network="metrics-net"}')).toBe(1);
    const detailed = await callRoute(health, "/api/health", { headers: auth });
    expect(detailed.json.details.settlement.gasWallets).toContainEqual(
      expect.objectContaining({ network: "metrics-net", balance: "0.0125", symbol: "coin", low: true }),
    );
    expect(detailed.json.details.settlement.sweeps).toContainEqual({
      network: "metrics-net",
      status: "FAILED",
      count: 1,
    });
  });

  it("counts a paid invoice, then shows the watcher stalled once its RPC stops", async () => {
    stopWatcher = startPeriodicTask(db(), scanNetworksTask);
    await until(
      async () => sample(await scrape(), 'checkout_chain_head_block{network="devnet"}') > 0,
      30_000,
    );
    const before = await scrape();

    const { organization } = await createTestOrganization();
    const created = await createCheckoutSession(db(), {
      organizationId: organization.id,
      request: { mode: "standalone", amount: "12.00", currency: "USD", expiresInMinutes: 60 },
      idempotency: null,
    });
    const invoice = await startPayment(db(), {
      checkoutSessionId: (created.body as { id: string }).id,
      network: "devnet",
      token: "USDC",
    });
    await devnet.mintUsdc(invoice.depositAddress, "12");
    await until(
      async () =>
        (await db().invoice.findUniqueOrThrow({ where: { id: invoice.id } })).status === "CONFIRMED",
      30_000,
    );
    // The watcher commits the payment before it moves its cursor (the head it read): a scrape in
    // between, which a busy machine can make, sees the confirmation but not yet the new head.
    const head = 'checkout_chain_head_block{network="devnet"}';
    let paid = before;
    await until(async () => {
      paid = await scrape();
      return (
        sample(paid, head) > sample(before, head) &&
        sample(paid, 'checkout_chain_lag_blocks{network="devnet"}') === 0
      );
    }, 30_000);
    const confirmed = 'checkout_invoices{status="CONFIRMED"}';
    expect(sample(paid, confirmed) - sample(before, confirmed)).toBe(1);
    expect(sample(paid, head)).toBeGreaterThan(sample(before, head));
    expect(sample(paid, 'checkout_chain_lag_blocks{network="devnet"}')).toBe(0);
    expect(sample(paid, 'checkout_job_lease_held_here{task="scan-networks"}')).toBe(1);
    const healthy = await callRoute(health, "/api/health", { headers: auth });
    expect(healthy.json.details.watchers[0]).toMatchObject({ network: "devnet", status: "ok", lagBlocks: 0 });

    await devnet.stop();
    const errors = 'checkout_chain_rpc_errors_total{network="devnet"}';
    await until(async () => sample(await scrape(), errors) > sample(paid, errors), 30_000);
    await until(
      async () => sample(await scrape(), 'checkout_chain_seconds_since_check{network="devnet"}') > 5,
      30_000,
    );

    const stalled = await callRoute(health, "/api/health", { headers: auth });
    expect(stalled.status).toBe(503);
    expect(stalled.json.checks.watchers).toBe("failing");
    expect(stalled.json.details.watchers[0]).toMatchObject({ network: "devnet", status: "stalled" });
    // Without the token the body names the failing check and nothing more.
    const anonymous = await callRoute(health, "/api/health");
    expect(anonymous.status).toBe(503);
    expect(anonymous.json.details).toBeUndefined();
    expect(anonymous.json.checks.watchers).toBe("failing");
  }, 120_000);
});
