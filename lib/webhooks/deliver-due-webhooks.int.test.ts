import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { verifyWebhookSignature } from "crypto-checkout-agent/webhooks";
import Stripe from "stripe";
import { afterEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db/client";
import { recordEvent } from "@/lib/events/record-event";
import { createTestOrganization } from "@/scripts/test-support/fixtures";
import { type ScriptedAnswer, startWebhookReceiver } from "@/scripts/test-support/webhook-receiver";
import { createWebhookEndpoint } from "./create-webhook-endpoint";
import { deliverDueWebhooks } from "./deliver-due-webhooks";
import { rotateWebhookSecret } from "./rotate-webhook-secret";

// Timeouts are scripted short here (the production default is 10 s), but not so short that a
// loopback answer from a busy machine misses them: at 300 ms a first attempt timed out in CI.
process.env.SERVICE_WEBHOOK_TIMEOUT_MS = "2000";

const receivers: Awaited<ReturnType<typeof startWebhookReceiver>>[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

async function scenario(
  script: ScriptedAnswer[],
  options: { adapter?: "NONE" | "STRIPE"; url?: string } = {},
) {
  const receiver = await startWebhookReceiver(script);
  receivers.push(receiver);
  const { organization } = await createTestOrganization();
  const { endpoint, signingSecret } = await createWebhookEndpoint(db(), organization.id, {
    name: "Shop",
    url: options.url ?? receiver.url,
    adapter: options.adapter ?? "NONE",
    enabled: true,
  });
  const event = await db().$transaction((tx) =>
    recordEvent(tx, {
      organizationId: organization.id,
      type: "payment.confirmed",
      invoiceId: "inv_scenario",
      data: { amount: "49.00", currency: "USD", status: "CONFIRMED" },
    }),
  );
  const t0 = event.createdAt;
  const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);
  const delivery = () =>
    db().webhookDelivery.findFirstOrThrow({
      where: { eventId: event.id },
      include: { attempts: { orderBy: { attemptedAt: "asc" } } },
    });
  return { receiver, endpoint, signingSecret, event, at, delivery };
}

describe("webhook delivery", () => {
  it("delivers on the first try with a verifiable signature and the event id header", async () => {
    const { receiver, signingSecret, event, at, delivery } = await scenario([{ status: 200 }]);
    expect(await deliverDueWebhooks(db(), { now: at(0) })).toBe(1);
    const stored = await delivery();
    expect(stored).toMatchObject({ status: "DELIVERED", attemptCount: 1, nextAttemptAt: null });
    expect(stored.attempts).toEqual([
      expect.objectContaining({ httpStatus: 200, attemptedAt: at(0), error: null }),
    ]);
    expect(receiver.received).toHaveLength(1);
    const [request] = receiver.received;
    expect(request.headers["x-service-event-id"]).toBe(event.id);
    expect(request.headers["content-type"]).toBe("application/json");
    const payload = JSON.parse(request.rawBody);
    expect(payload).toMatchObject({
      id: event.id,
      type: "payment.confirmed",
      invoiceId: "inv_scenario",
      livemode: true,
    });
    expect(
      verifyWebhookSignature({
        rawBody: request.rawBody,
        header: request.headers["x-service-signature"] as string,
        secret: signingSecret,
      }),
    ).toMatchObject({ valid: true });
    await deliverDueWebhooks(db(), { now: at(3600) });
    expect((await delivery()).attemptCount).toBe(1);
  });

  it("retries 500, 500 at 10 s and 30 s after the first attempt, then delivers", async () => {
    const { receiver, at, delivery } = await scenario([{ status: 500 }, { status: 500 }, { status: 200 }]);
    for (const second of [0, 9.9, 10, 29, 30]) await deliverDueWebhooks(db(), { now: at(second) });
    const stored = await delivery();
    expect(stored.status).toBe("DELIVERED");
    expect(stored.attempts.map((attempt) => [attempt.attemptedAt, attempt.httpStatus])).toEqual([
      [at(0), 500],
      [at(10), 500],
      [at(30), 200],
    ]);
    expect(receiver.received).toHaveLength(3);
    expect(new Set(receiver.received.map((request) => JSON.parse(request.rawBody).id)).size).toBe(1);
  });

  it("cools down for an hour after five failures, then starts a new round", async () => {
    const { at, delivery } = await scenario(Array(7).fill({ status: 503 }));
    for (const second of [0, 10, 30, 90, 270]) await deliverDueWebhooks(db(), { now: at(second) });
    const cooling = await delivery();
    expect(cooling).toMatchObject({ status: "COOLDOWN", attemptCount: 5, nextAttemptAt: at(270 + 3600) });
    for (const second of [270 + 3599, 270 + 3600, 270 + 3610])
      await deliverDueWebhooks(db(), { now: at(second) });
    const again = await delivery();
    expect(again.attempts.map((attempt) => attempt.attemptedAt)).toEqual(
      [0, 10, 30, 90, 270, 3870, 3880].map((second) => at(second)),
    );
    expect(again).toMatchObject({ status: "PENDING", roundAttempts: 2, nextAttemptAt: at(3870 + 30) });
  });

  it("waits as long as Retry-After asks on a 429", async () => {
    const { at, delivery } = await scenario([{ status: 429, headers: { "retry-after": "120" } }]);
    await deliverDueWebhooks(db(), { now: at(0) });
    expect(await delivery()).toMatchObject({ status: "PENDING", nextAttemptAt: at(120) });
    await deliverDueWebhooks(db(), { now: at(60) });
    expect((await delivery()).attemptCount).toBe(1);
    await deliverDueWebhooks(db(), { now: at(120) });
    expect((await delivery()).attemptCount).toBe(2);
  });

  it.each([400, 401, 403, 404])("fails for good on %i without retrying", async (status) => {
    const { receiver, at, delivery } = await scenario([{ status, body: "nope" }]);
    await deliverDueWebhooks(db(), { now: at(0) });
    const stored = await delivery();
    expect(stored).toMatchObject({ status: "FAILED", attemptCount: 1, nextAttemptAt: null });
    expect(stored.attempts[0]).toMatchObject({ httpStatus: status, responseBody: "nope" });
    await deliverDueWebhooks(db(), { now: at(100_000) });
    expect((await delivery()).attemptCount).toBe(1);
    expect(receiver.received).toHaveLength(1);
  });

  it("counts a slow receiver as a timed-out attempt and retries", async () => {
    const { at, delivery } = await scenario([{ status: 200, delayMs: 6000 }, { status: 200 }]);
    await deliverDueWebhooks(db(), { now: at(0) });
    const stored = await delivery();
    expect(stored).toMatchObject({ status: "PENDING", nextAttemptAt: at(10) });
    expect(stored.attempts[0]).toMatchObject({ httpStatus: null, error: "timed out after 2000 ms" });
    await deliverDueWebhooks(db(), { now: at(10) });
    expect((await delivery()).status).toBe("DELIVERED");
  });

  it("retries a refused connection and a dropped one", async () => {
    const closed = await startWebhookReceiver();
    const deadUrl = closed.url;
    await closed.close();
    const refused = await scenario([], { url: deadUrl });
    await deliverDueWebhooks(db(), { now: refused.at(0) });
    const stored = await refused.delivery();
    expect(stored).toMatchObject({ status: "PENDING", nextAttemptAt: refused.at(10) });
    expect(stored.attempts[0].httpStatus).toBeNull();
    expect(stored.attempts[0].error).toMatch(/^connection failed/);

    const dropped = await scenario([{ drop: true }]);
    await deliverDueWebhooks(db(), { now: dropped.at(0) });
    expect((await dropped.delivery()).attempts[0]).toMatchObject({ httpStatus: null });
  });

  it("never follows a redirect, and counts it as a retryable failure", async () => {
    const { receiver, at, delivery } = await scenario([]);
    receiver.script({ status: 302, headers: { location: `http://127.0.0.1:${receiver.port}/elsewhere` } });
    await deliverDueWebhooks(db(), { now: at(0) });
    expect(receiver.received.map((request) => request.path)).toEqual(["/webhooks"]);
    expect(await delivery()).toMatchObject({ status: "PENDING", nextAttemptAt: at(10) });
  });

  it("signs Stripe-shaped events that the official stripe library verifies", async () => {
    const { receiver, signingSecret, event, at } = await scenario([{ status: 200 }], { adapter: "STRIPE" });
    await deliverDueWebhooks(db(), { now: at(0) });
    const [request] = receiver.received;
    const stripe = new Stripe("sk_test_unused");
    const verified = stripe.webhooks.constructEvent(
      request.rawBody,
      request.headers["stripe-signature"] as string,
      signingSecret,
    );
    expect(verified).toMatchObject({
      id: event.id,
      object: "event",
      type: "payment.confirmed",
      livemode: true,
      data: { object: { id: event.id, invoiceId: "inv_scenario", amount: "49.00" } },
    });
    expect(() =>
      stripe.webhooks.constructEvent(
        request.rawBody.replace("49.00", "0.01"),
        request.headers["stripe-signature"] as string,
        signingSecret,
      ),
    ).toThrow();
    expect(request.headers["x-service-signature"]).toBe(request.headers["stripe-signature"]);
  });

  it("signs with both secrets during a rotation's grace period", async () => {
    const { receiver, endpoint, signingSecret, at } = await scenario([{ status: 500 }, { status: 200 }]);
    await deliverDueWebhooks(db(), { now: at(0) });
    const rotated = await rotateWebhookSecret(db(), endpoint.organizationId, endpoint.id);
    await deliverDueWebhooks(db(), { now: at(10) });
    const second = receiver.received[1];
    const header = second.headers["x-service-signature"] as string;
    expect(header.match(/v1=/g)).toHaveLength(2);
    for (const secret of [signingSecret, rotated.signingSecret]) {
      expect(verifyWebhookSignature({ rawBody: second.rawBody, header, secret }).valid).toBe(true);
    }
  });

  it("shares due deliveries between concurrent workers without doubling any", async () => {
    const { event } = await scenario([]);
    for (let i = 0; i < 20; i++) {
      await db().$transaction((tx) =>
        recordEvent(tx, { organizationId: event.organizationId, type: "invoice.created", data: { n: i } }),
      );
    }
    // Everything recorded so far is due, however long recording took on a loaded machine.
    const now = new Date();
    await Promise.all([1, 2, 3].map(() => deliverDueWebhooks(db(), { now })));
    const attempts = await db().webhookAttempt.count({
      where: { delivery: { organizationId: event.organizationId } },
    });
    expect(attempts).toBe(21);
  });

  it.each<[string, string | Buffer, string]>([
    ["a NUL byte", "ok\u0000done", "ok\u2400done"],
    ["invalid UTF-8", Buffer.from([0x6f, 0x6b, 0xff, 0xfe, 0x00]), "ok\ufffd\ufffd\u2400"],
    ["a lone surrogate", "ok\ud800", "ok\ufffd"],
  ])("stores an answer with %s and moves on", async (_label, body, stored) => {
    const { at, delivery } = await scenario([{ status: 500, body }]);
    await deliverDueWebhooks(db(), { now: at(0) });
    const first = await delivery();
    expect(first).toMatchObject({
      status: "PENDING",
      attemptCount: 1,
      nextAttemptAt: at(10),
      lockedUntil: null,
    });
    expect(first.attempts[0]).toMatchObject({ httpStatus: 500, responseBody: stored });
    // Not claimed again before its schedule says so.
    await deliverDueWebhooks(db(), { now: at(5) });
    expect((await delivery()).attemptCount).toBe(1);
  });

  it("moves a delivery on per its schedule even when its attempt cannot be recorded", async () => {
    const { receiver, at, delivery } = await scenario([{ status: 500, body: "refused by the database" }]);
    // Any failure to store the attempt, as a NUL byte used to cause (error 22021).
    await db().$executeRawUnsafe(`
      CREATE FUNCTION refuse_attempt() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'cannot store this attempt'; END $$`);
    await db().$executeRawUnsafe(`
      CREATE TRIGGER refuse_attempt BEFORE INSERT ON "WebhookAttempt" FOR EACH ROW
      WHEN (NEW."responseBody" = 'refused by the database') EXECUTE FUNCTION refuse_attempt()`);
    try {
      await deliverDueWebhooks(db(), { now: at(0) });
      const stored = await delivery();
      expect(stored).toMatchObject({
        status: "PENDING",
        attemptCount: 1,
        nextAttemptAt: at(10),
        lockedUntil: null,
      });
      // The attempt is kept without the answer that could not be stored.
      expect(stored.attempts).toEqual([expect.objectContaining({ httpStatus: 500, responseBody: null })]);
      // Claims lapse after two minutes; the delivery is not re-sent before its next attempt.
      await deliverDueWebhooks(db(), { now: at(9) });
      expect(receiver.received).toHaveLength(1);
      await deliverDueWebhooks(db(), { now: at(10) });
      expect(receiver.received).toHaveLength(2);
      expect((await delivery()).status).toBe("DELIVERED");
    } finally {
      await db().$executeRawUnsafe(`DROP TRIGGER refuse_attempt ON "WebhookAttempt"`);
      await db().$executeRawUnsafe("DROP FUNCTION refuse_attempt");
    }
  });

  it("reads only the kept kilobyte of an endless answer and closes the connection", async () => {
    const chunk = Buffer.alloc(64 * 1024, "x");
    let written = 0;
    let closed = false;
    const streamer = createServer((request, response) => {
      request.resume();
      request.on("end", () => {
        response.writeHead(200, { "content-type": "text/plain" });
        response.on("close", () => {
          closed = true;
        });
        // Up to 1 GiB, as fast as the reader takes it.
        const pump = () => {
          while (!response.destroyed && written < 1024 ** 3) {
            written += chunk.length;
            if (!response.write(chunk)) return void response.once("drain", pump);
          }
          response.end();
        };
        pump();
      });
    });
    await new Promise<void>((resolve) => streamer.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = streamer.address() as AddressInfo;
      const { at, delivery } = await scenario([], { url: `http://127.0.0.1:${port}/hooks` });
      await deliverDueWebhooks(db(), { now: at(0) });
      const stored = await delivery();
      expect(stored).toMatchObject({ status: "DELIVERED" });
      expect(stored.attempts[0].responseBody).toBe("x".repeat(1024));
      // The reader hung up after the kept KiB: the receiver wrote little more than socket buffers hold.
      await vi.waitFor(() => expect(closed).toBe(true));
      expect(written).toBeLessThan(16 * 1024 * 1024);
    } finally {
      streamer.closeAllConnections();
      streamer.close();
    }
  });

  it("stores secrets encrypted, never in the clear", async () => {
    const { endpoint, signingSecret } = await scenario([]);
    const row = await db().webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(JSON.stringify(row)).not.toContain(signingSecret);
    expect(JSON.stringify(row)).not.toContain(signingSecret.slice(6));
  });
});
