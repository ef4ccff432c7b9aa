import { verifyWebhookSignature } from "crypto-checkout-agent/webhooks";
import { afterEach, describe, expect, it } from "vitest";
import { GET as eventDeliveries } from "@/app/api/private/events/[id]/deliveries/route";
import { PUT as updateOrganization } from "@/app/api/private/organization/current/route";
import { db } from "@/lib/db/client";
import { deliverDueWebhooks } from "@/lib/webhooks/deliver-due-webhooks";
import { callRoute } from "@/scripts/test-support/call-route";
import { createTestOrganization } from "@/scripts/test-support/fixtures";
import { startWebhookReceiver } from "@/scripts/test-support/webhook-receiver";
import { GET as deliveriesOf } from "./[id]/deliveries/route";
import { POST as redeliver } from "./[id]/redeliver/route";
import { POST as rotate } from "./[id]/rotate-secret/route";
import { DELETE, GET as getOne, PATCH } from "./[id]/route";
import { POST as sendTest } from "./[id]/test/route";
import { POST as create, GET as list } from "./route";

const base = "/api/private/organization/webhook-endpoints";
const receivers: Awaited<ReturnType<typeof startWebhookReceiver>>[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

async function setup() {
  const merchant = await createTestOrganization();
  const receiver = await startWebhookReceiver();
  receivers.push(receiver);
  const created = await callRoute(create, base, {
    headers: merchant.auth,
    body: { name: "Orders", url: receiver.url, adapter: "NONE", enabled: true },
  });
  return { ...merchant, receiver, created };
}

describe("webhook endpoints", () => {
  it("creates an endpoint and shows its secret only once", async () => {
    const { auth, created, receiver } = await setup();
    expect(created.status).toBe(201);
    expect(created.json).toEqual({
      success: true,
      data: {
        id: expect.stringMatching(/^we_/),
        object: "webhook_endpoint",
        name: "Orders",
        url: receiver.url,
        adapter: "NONE",
        enabled: true,
        isDefault: false,
        createdAt: expect.any(String),
        signingSecret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      },
    });
    const { id, signingSecret } = created.json.data;
    const listed = await callRoute(list, base, { headers: auth });
    expect(listed.json.data.data).toHaveLength(1);
    const updated = await callRoute(PATCH, `${base}/${id}`, {
      method: "PATCH",
      headers: auth,
      params: { id },
      body: { name: "Renamed", adapter: "STRIPE", enabled: false },
    });
    expect(updated.json.data).toMatchObject({ name: "Renamed", adapter: "STRIPE", enabled: false });
    const read = await callRoute(getOne, `${base}/${id}`, { headers: auth, params: { id } });
    for (const response of [listed, updated, read]) {
      expect(response.text).not.toContain(signingSecret);
      expect(response.text).not.toContain("signingSecret");
    }
  });

  it.each<[string, Record<string, unknown>, string, string]>([
    ["no url", { name: "x" }, "parameter_missing", "url"],
    ["a relative url", { name: "x", url: "/hooks" }, "parameter_invalid", "url"],
    [
      "an unknown adapter",
      { name: "x", url: "https://hooks.example.com", adapter: "PAYPAL" },
      "parameter_invalid",
      "adapter",
    ],
    [
      "an unknown field",
      { name: "x", url: "https://hooks.example.com", secret: "mine" },
      "parameter_unknown",
      "secret",
    ],
  ])("rejects %s", async (_case, body, code, param) => {
    const { auth, organization } = await createTestOrganization();
    const response = await callRoute(create, base, { headers: auth, body });
    expect(response.status).toBe(400);
    expect(response.json.error).toMatchObject({ code, param });
    expect(await db().webhookEndpoint.count({ where: { organizationId: organization.id } })).toBe(0);
  });

  it("rotates the secret: the new one is returned once and both sign during the grace period", async () => {
    const { auth, created } = await setup();
    const { id, signingSecret } = created.json.data;
    const rotated = await callRoute(rotate, `${base}/${id}/rotate-secret`, {
      method: "POST",
      headers: auth,
      params: { id },
    });
    expect(rotated.status).toBe(200);
    expect(rotated.json.data.signingSecret).not.toBe(signingSecret);
    const graceHours = (Date.parse(rotated.json.data.previousSecretExpiresAt) - Date.now()) / 3_600_000;
    expect(graceHours).toBeGreaterThan(23.9);
    expect(graceHours).toBeLessThanOrEqual(24);
  });

  it("of concurrent rotations one wins and the others get 409: every secret handed out signs", async () => {
    const { auth, created, receiver } = await setup();
    const { id, signingSecret } = created.json.data;
    // A slow write, so that every rotation reads the secret before the first one commits: long
    // enough for five requests to start on a loaded 2-core machine (0.3 s was not, once).
    await db().$executeRawUnsafe(`
      CREATE FUNCTION slow_write() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM pg_sleep(1.5); RETURN NEW; END $$`);
    await db().$executeRawUnsafe(
      `CREATE TRIGGER slow_write BEFORE UPDATE ON "WebhookEndpoint" FOR EACH ROW EXECUTE FUNCTION slow_write()`,
    );
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        callRoute(rotate, `${base}/${id}/rotate-secret`, { method: "POST", headers: auth, params: { id } }),
      ),
    ).finally(async () => {
      await db().$executeRawUnsafe(`DROP TRIGGER slow_write ON "WebhookEndpoint"`);
      await db().$executeRawUnsafe("DROP FUNCTION slow_write");
    });
    const won = answers.filter((answer) => answer.status === 200);
    expect(won).toHaveLength(1);
    for (const lost of answers.filter((answer) => answer.status !== 200)) {
      expect(lost.status).toBe(409);
      expect(lost.json.error).toMatchObject({ code: "concurrent_rotation" });
    }
    await callRoute(sendTest, `${base}/${id}/test`, { method: "POST", headers: auth, params: { id } });
    await deliverDueWebhooks(db());
    const [request] = receiver.received;
    const header = request.headers["x-service-signature"] as string;
    for (const secret of [signingSecret, won[0].json.data.signingSecret]) {
      expect(verifyWebhookSignature({ rawBody: request.rawBody, header, secret }).valid).toBe(true);
    }
  });

  it("sends a test event of the type the optional body names, and refuses an unknown type", async () => {
    const { auth, created, receiver } = await setup();
    const { id } = created.json.data;
    const send = (body: unknown) =>
      callRoute(sendTest, `${base}/${id}/test`, { method: "POST", headers: auth, params: { id }, body });
    const unknown = await send({ type: "payment.refunded" });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error).toMatchObject({ code: "parameter_invalid", param: "type" });
    const sent = await send({ type: "invoice.overdue" });
    expect(sent.status).toBe(202);
    expect(sent.json.data).toMatchObject({ type: "invoice.overdue", livemode: false });
    await deliverDueWebhooks(db());
    expect(receiver.received).toHaveLength(1);
    expect(JSON.parse(receiver.received[0].rawBody)).toMatchObject({
      id: sent.json.data.eventId,
      type: "invoice.overdue",
    });
  });

  it("sends a test event through the real delivery path and logs the attempt", async () => {
    const { auth, created, receiver, organization } = await setup();
    const { id, signingSecret } = created.json.data;
    const sent = await callRoute(sendTest, `${base}/${id}/test`, {
      method: "POST",
      headers: auth,
      params: { id },
    });
    expect(sent.status).toBe(202);
    expect(sent.json.data).toMatchObject({ eventId: expect.stringMatching(/^evt_test_/), livemode: false });
    await deliverDueWebhooks(db());
    const [request] = receiver.received;
    const payload = JSON.parse(request.rawBody);
    expect(payload).toMatchObject({ id: sent.json.data.eventId, livemode: false, type: "payment.confirmed" });
    expect(
      verifyWebhookSignature({
        rawBody: request.rawBody,
        header: request.headers["x-service-signature"] as string,
        secret: signingSecret,
      }).valid,
    ).toBe(true);
    // Test events create no checkout sessions, invoices or customers: only the event and its delivery.
    expect(await db().checkoutSession.count({ where: { organizationId: organization.id } })).toBe(0);

    const log = await callRoute(deliveriesOf, `${base}/${id}/deliveries`, { headers: auth, params: { id } });
    expect(log.json.data).toMatchObject({ object: "list", total: 1 });
    expect(log.json.data.data[0]).toMatchObject({
      eventId: sent.json.data.eventId,
      status: "DELIVERED",
      attempts: [{ httpStatus: 200, responseBody: "ok", error: null }],
    });
    const byEvent = await callRoute(eventDeliveries, "/api/private/events/x/deliveries", {
      headers: auth,
      params: { id: sent.json.data.eventId },
    });
    expect(byEvent.json.data.data).toHaveLength(1);

    const again = await callRoute(redeliver, `${base}/${id}/redeliver`, {
      headers: auth,
      params: { id },
      body: { eventId: sent.json.data.eventId },
    });
    expect(again.status).toBe(202);
    await deliverDueWebhooks(db());
    expect(receiver.received).toHaveLength(2);
    expect(JSON.parse(receiver.received[1].rawBody).id).toBe(sent.json.data.eventId);
  });

  it("answers 404 on every id-bearing endpoint for another organization's endpoint or event", async () => {
    const owner = await setup();
    const other = await createTestOrganization();
    const { id } = owner.created.json.data;
    const sent = await callRoute(sendTest, `${base}/x`, {
      method: "POST",
      headers: owner.auth,
      params: { id },
    });
    const eventId = sent.json.data.eventId;
    const attempts = [
      callRoute(getOne, `${base}/x`, { headers: other.auth, params: { id } }),
      callRoute(PATCH, `${base}/x`, {
        method: "PATCH",
        headers: other.auth,
        params: { id },
        body: { name: "Mine" },
      }),
      callRoute(DELETE, `${base}/x`, { method: "DELETE", headers: other.auth, params: { id } }),
      callRoute(rotate, `${base}/x`, { method: "POST", headers: other.auth, params: { id } }),
      callRoute(sendTest, `${base}/x`, { method: "POST", headers: other.auth, params: { id } }),
      callRoute(deliveriesOf, `${base}/x`, { headers: other.auth, params: { id } }),
      callRoute(redeliver, `${base}/x`, { headers: other.auth, params: { id }, body: { eventId } }),
      callRoute(eventDeliveries, "/api/private/events/x/deliveries", {
        headers: other.auth,
        params: { id: eventId },
      }),
      callRoute(redeliver, `${base}/x`, {
        headers: owner.auth,
        params: { id },
        body: { eventId: "evt_nope" },
      }),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.status).toBe(404);
      expect(response.json.error.code).toBe("resource_missing");
    }
    expect((await db().webhookEndpoint.findUniqueOrThrow({ where: { id } })).name).toBe("Orders");
  });

  it("deletes an endpoint", async () => {
    const { auth, created } = await setup();
    const { id } = created.json.data;
    const deleted = await callRoute(DELETE, `${base}/x`, { method: "DELETE", headers: auth, params: { id } });
    expect(deleted.json.data).toMatchObject({ id, deleted: true });
    expect(await db().webhookEndpoint.findUnique({ where: { id } })).toBeNull();
  });

  it("keeps the organization's default webhook URL as an endpoint", async () => {
    const { auth, organization } = await createTestOrganization();
    const put = (webhookUrl: string | null) =>
      callRoute(updateOrganization, "/api/private/organization/current", {
        method: "PUT",
        headers: auth,
        body: { webhookUrl },
      });
    await put("https://shop.example/hooks");
    const endpoints = () => db().webhookEndpoint.findMany({ where: { organizationId: organization.id } });
    expect(await endpoints()).toEqual([
      expect.objectContaining({ url: "https://shop.example/hooks", isDefault: true, enabled: true }),
    ]);
    await put("https://shop.example/hooks-v2");
    expect(await endpoints()).toEqual([
      expect.objectContaining({ url: "https://shop.example/hooks-v2", isDefault: true }),
    ]);
    await put(null);
    expect(await endpoints()).toEqual([]);
  });
});
