import { createHmac } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { InngestTestEngine } from "@inngest/test";
import { NextRequest } from "next/server";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { recordEvent } from "@/lib/events/record-event";
import { deliveryDueEvent, inngest } from "@/lib/jobs/inngest-client";
import { markOverdueInvoices } from "@/lib/payments/mark-overdue-invoices";
import {
  createTestInvoice,
  createTestOrganization,
  createTestReceiverEndpoint,
} from "@/scripts/test-support/fixtures";
import { createTestSubscription } from "@/scripts/test-support/subscription-fixtures";
import type { ScriptedAnswer, startWebhookReceiver } from "@/scripts/test-support/webhook-receiver";
import { deliverWebhook, functions, periodicFunctions } from "./functions";

process.env.SERVICE_JOB_ENGINE = "inngest";

const receivers: Awaited<ReturnType<typeof startWebhookReceiver>>[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

async function dueDelivery(script: ScriptedAnswer[]) {
  const { receiver, organization } = await createTestReceiverEndpoint(script);
  receivers.push(receiver);
  const event = await db().$transaction((tx) =>
    recordEvent(tx, { organizationId: organization.id, type: "invoice.created", data: { amount: "1.00" } }),
  );
  const delivery = await db().webhookDelivery.findFirstOrThrow({ where: { eventId: event.id } });
  return { receiver, delivery, organizationId: organization.id };
}

describe("Inngest functions (same domain functions as the in-process engine)", () => {
  it("are the periodic task list, each on its cron schedule, plus the per-delivery run", () => {
    expect(functions.map((fn) => [fn.id(), fn.opts.triggers])).toEqual([
      ["deliver-webhooks", [{ cron: "* * * * *" }]],
      ["scan-networks", [{ cron: "* * * * *" }]],
      ["mark-overdue-invoices", [{ cron: "* * * * *" }]],
      ["process-due-subscriptions", [{ cron: "* * * * *" }]],
      ["expire-checkout-sessions", [{ cron: "* * * * *" }]],
      ["expire-refund-claims", [{ cron: "* * * * *" }]],
      ["resolve-x402-settlements", [{ cron: "* * * * *" }]],
      ["deliver-outbound-emails", [{ cron: "* * * * *" }]],
      ["purge-idempotency-keys", [{ cron: "17 * * * *" }]],
      ["purge-oauth-records", [{ cron: "23 * * * *" }]],
      ["purge-agent-setups", [{ cron: "29 * * * *" }]],
      ["purge-used-confirmations", [{ cron: "41 * * * *" }]],
      ["send-monthly-reports", [{ cron: "47 * * * *" }]],
      ["reconcile-deposit-balances", [{ cron: "17 3 * * *" }]],
      ["deliver-webhook", [{ event: deliveryDueEvent }]],
    ]);
  });

  it("the subscription cron ends a grace period that ran out, as the in-process task does", async () => {
    const { organization } = await createTestOrganization();
    const subscription = await createTestSubscription(organization.id, { status: "PAST_DUE" });
    await db().subscription.update({
      where: { id: subscription.id },
      data: {
        currentPeriodEnd: new Date(Date.now() - 4 * 86_400_000),
        nextActionAt: new Date(Date.now() - 1000),
      },
    });
    const { result } = await new InngestTestEngine({
      function: periodicFunctions["process-due-subscriptions"],
    }).execute();
    expect(result).toBe(true);
    expect(await db().subscription.findUniqueOrThrow({ where: { id: subscription.id } })).toMatchObject({
      status: "CANCELLED",
      cancellationReason: "unpaid",
      nextActionAt: null,
    });
    expect(
      await db().event.count({ where: { organizationId: organization.id, type: "subscription.cancelled" } }),
    ).toBe(1);
  });

  it("the cron sweep delivers what is due", async () => {
    const { receiver, delivery } = await dueDelivery([{ status: 200 }]);
    const { result } = await new InngestTestEngine({
      function: periodicFunctions["deliver-webhooks"],
    }).execute();
    expect(result).toBe(true);
    expect(receiver.received).toHaveLength(1);
    expect((await db().webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } })).status).toBe(
      "DELIVERED",
    );
  });

  it("a delivery run attempts, then sleeps until the next scheduled attempt", async () => {
    const { receiver, delivery } = await dueDelivery([{ status: 500 }]);
    const engine = new InngestTestEngine({
      function: deliverWebhook,
      events: [{ name: deliveryDueEvent, data: { deliveryId: delivery.id } }],
    });
    const { result } = await engine.executeStep("attempt-1");
    expect(result).toMatchObject({ status: "PENDING", roundAttempts: 1 });
    expect(receiver.received).toHaveLength(1);
    const stored = await db().webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } });
    expect(stored.nextAttemptAt?.getTime()).toBe((stored.roundStartedAt as Date).getTime() + 10_000);
    // The test engine resolves sleeps at once: woken early, the run finds nothing due and stops
    // rather than attempting ahead of the schedule.
    const { result: finished } = await engine.execute();
    expect(finished).toBe("not-due");
    expect(receiver.received).toHaveLength(1);
  });

  it("a delivery run for something not due does nothing", async () => {
    const { receiver, delivery } = await dueDelivery([]);
    await db().webhookDelivery.update({
      where: { id: delivery.id },
      data: { status: "DELIVERED", nextAttemptAt: null },
    });
    const { result } = await new InngestTestEngine({
      function: deliverWebhook,
      events: [{ name: deliveryDueEvent, data: { deliveryId: delivery.id } }],
    }).execute();
    expect(result).toBe("not-due");
    expect(receiver.received).toHaveLength(0);
  });

  it("a live event's deliveries are announced right after commit, and the announced run delivers them", async () => {
    // No Inngest server runs here: a loopback event API keeps what the official SDK sends.
    const sent: { id?: string; name: string; data: { deliveryId: string } }[] = [];
    const eventApi = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk) => (body += chunk));
      request.on("end", () => {
        const events = JSON.parse(body) as typeof sent;
        sent.push(...events);
        response.setHeader("content-type", "application/json");
        response.end(JSON.stringify({ ids: events.map((_, i) => `01J${i}`), status: 200 }));
      });
    });
    await new Promise<void>((resolve) => eventApi.listen(0, "127.0.0.1", resolve));
    inngest.setEnvVars({
      ...process.env,
      INNGEST_EVENT_API_BASE_URL: `http://127.0.0.1:${(eventApi.address() as AddressInfo).port}/`,
      INNGEST_EVENT_KEY: "test-event-key",
    });
    try {
      const { receiver, organizationId } = await dueDelivery([{ status: 200 }]);
      await db().webhookDelivery.deleteMany({ where: { organizationId } });
      await createTestInvoice(organizationId, { amount: "10.00", status: "AWAITING_PAYMENT" });
      // The deadline job: the invoice goes overdue and invoice.overdue is recorded, live.
      await markOverdueInvoices(db());
      const delivery = await db().webhookDelivery.findFirstOrThrow({
        where: { organizationId },
        include: { event: true },
      });
      expect(delivery.event.type).toBe("invoice.overdue");
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatchObject({
        id: delivery.id,
        name: deliveryDueEvent,
        data: { deliveryId: delivery.id },
      });

      const { result } = await new InngestTestEngine({
        function: deliverWebhook,
        events: [sent[0]],
      }).execute();
      expect(result).toBe("DELIVERED");
      expect(receiver.received.map((request) => JSON.parse(request.rawBody).type)).toEqual([
        "invoice.overdue",
      ]);
    } finally {
      inngest.setEnvVars(process.env);
      eventApi.close();
    }
  });

  it("the expiry cron expires sessions", async () => {
    const { organization } = await createTestOrganization();
    await db().checkoutSession.create({
      data: {
        id: "ycs_inngestexpiry000000000001",
        organizationId: organization.id,
        amount: "1",
        currency: "USD",
        expiresAt: new Date(Date.now() - 1000),
      },
    });
    await new InngestTestEngine({ function: periodicFunctions["expire-checkout-sessions"] }).execute();
    expect(
      (await db().checkoutSession.findUniqueOrThrow({ where: { id: "ycs_inngestexpiry000000000001" } }))
        .status,
    ).toBe("EXPIRED");
  });

  it("the chain watcher run stays out while another engine's instance holds the scan lease", async () => {
    await db().jobLease.create({
      data: { name: "scan-networks", owner: "inst_inprocess", expiresAt: new Date(Date.now() + 60_000) },
    });
    const started = performance.now();
    const { result } = await new InngestTestEngine({
      function: periodicFunctions["scan-networks"],
    }).execute();
    expect(result).toBe(false);
    // A hang guard: staying out does not wait for the lease to lapse (a minute).
    expect(performance.now() - started).toBeLessThan(30_000);
    expect((await db().jobLease.findUniqueOrThrow({ where: { name: "scan-networks" } })).owner).toBe(
      "inst_inprocess",
    );
  });
});

describe("the endpoint an Inngest server calls (lib/http/inngest-route.ts)", () => {
  const signingKey = "signkey-test-0123456789abcdef0123456789abcdef";
  /** Signed as an Inngest server signs a call: HMAC-SHA256 of body and timestamp, the key's prefix off. */
  const signed = (body: string, key = signingKey) => {
    const timestamp = Math.round(Date.now() / 1000).toString();
    const mac = createHmac("sha256", key.replace(/^signkey-\w+-/, ""))
      .update(body + timestamp)
      .digest("hex");
    return `t=${timestamp}&s=${mac}`;
  };
  let route: typeof import("@/app/api/inngest/route");
  beforeAll(async () => {
    // The SDK fixes where it syncs when the route is made: a closed port here, never the internet.
    inngest.setEnvVars({ ...process.env, INNGEST_API_BASE_URL: "http://127.0.0.1:9" });
    route = await import("@/app/api/inngest/route");
  });
  const call = (method: string, query: string, body?: string, headers: Record<string, string> = {}) =>
    route[method as "GET"](
      new NextRequest(`http://localhost:3000/api/inngest${query}`, {
        method,
        body,
        headers: { "content-type": "application/json", ...headers },
      }),
      { params: Promise.resolve({}) },
    );
  /** A cron run of the session expiry, as the Inngest server posts it. */
  const cronRun = JSON.stringify({
    ctx: { attempt: 0, run_id: "01JTESTRUN0000000000000000", stack: { current: 0, stack: [] } },
    event: { data: { cron: "* * * * *" }, name: "inngest/scheduled.timer" },
    events: [{ data: { cron: "* * * * *" }, name: "inngest/scheduled.timer" }],
    steps: {},
    version: 1,
  });
  const runQuery = "?fnId=crypto-checkout-expire-checkout-sessions&stepId=step";

  afterEach(() => inngest.setEnvVars(process.env));

  it.each([
    ["GET", "", undefined],
    ["POST", runQuery, cronRun],
    ["PUT", "", undefined],
  ])("without a signing key, %s is 503 jobs_engine_unavailable", async (method, query, body) => {
    inngest.setEnvVars({ ...process.env, INNGEST_SIGNING_KEY: undefined, INNGEST_DEV: undefined });
    const response = await call(method, query, body);
    expect(response.status).toBe(503);
    expect(response.headers.get("x-request-id")).toMatch(/^req_\w+$/);
    expect((await response.json()).error).toMatchObject({ code: "jobs_engine_unavailable" });
  });

  it.each([
    ["an unsigned run", "POST", runQuery, cronRun, {}, 401, "invalid_signature"],
    [
      "a run signed with another key",
      "POST",
      runQuery,
      cronRun,
      "signkey-test-ffff",
      401,
      "invalid_signature",
    ],
    ["a garbled signature", "POST", runQuery, cronRun, "t=x&s=%00", 401, "invalid_signature"],
    ["a body that is not JSON", "POST", runQuery, "garbage{{", {}, 400, "invalid_json"],
    ["a sync with the Inngest server unreachable", "PUT", "", undefined, {}, 503, "jobs_engine_unavailable"],
  ])("with a signing key, %s", async (_name, method, query, body, signature, status, code) => {
    inngest.setEnvVars({
      ...process.env,
      INNGEST_SIGNING_KEY: signingKey,
      INNGEST_API_BASE_URL: "http://127.0.0.1:9",
    });
    const headers: Record<string, string> =
      typeof signature === "string"
        ? { "x-inngest-signature": signature.startsWith("t=") ? signature : signed(body ?? "", signature) }
        : {};
    const response = await call(method, query, body, headers);
    expect(response.status).toBe(status);
    const text = await response.text();
    expect(JSON.parse(text).error).toMatchObject({ code });
    expect(text).not.toMatch(/inngest\.com|node_modules|\bat \S+ \(/);
  });

  it("with a signing key, a signed cron run runs the task and keeps the SDK's answer", async () => {
    inngest.setEnvVars({
      ...process.env,
      INNGEST_SIGNING_KEY: signingKey,
      INNGEST_API_BASE_URL: "http://127.0.0.1:9",
    });
    const { organization } = await createTestOrganization();
    await db().checkoutSession.create({
      data: {
        id: "ycs_inngestendpoint0000000001",
        organizationId: organization.id,
        amount: "1",
        currency: "USD",
        expiresAt: new Date(Date.now() - 1000),
      },
    });
    const response = await call("POST", runQuery, cronRun, { "x-inngest-signature": signed(cronRun) });
    expect(response.status).toBeLessThan(300);
    expect(
      (await db().checkoutSession.findUniqueOrThrow({ where: { id: "ycs_inngestendpoint0000000001" } }))
        .status,
    ).toBe("EXPIRED");
    // The introspection an Inngest server reads is the SDK's own.
    const introspection = await call("GET", "", undefined, { "x-inngest-signature": signed("") });
    expect(introspection.status).toBe(200);
    expect(await introspection.json()).toMatchObject({ function_count: functions.length });
  });
});
