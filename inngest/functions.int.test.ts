import { InngestTestEngine } from "@inngest/test";
import { afterEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { recordEvent } from "@/lib/events/record-event";
import { createWebhookEndpoint } from "@/lib/webhooks/create-webhook-endpoint";
import { createTestOrganization } from "@/scripts/test-support/fixtures";
import { type ScriptedAnswer, startWebhookReceiver } from "@/scripts/test-support/webhook-receiver";
import { deliveryDueEvent } from "./client";
import {
  deliverDueWebhooksCron,
  deliverWebhook,
  expireCheckoutSessionsCron,
  scanNetworksCron,
} from "./functions";

const receivers: Awaited<ReturnType<typeof startWebhookReceiver>>[] = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
});

async function dueDelivery(script: ScriptedAnswer[]) {
  const receiver = await startWebhookReceiver(script);
  receivers.push(receiver);
  const { organization } = await createTestOrganization();
  await createWebhookEndpoint(db(), organization.id, {
    name: "Shop",
    url: receiver.url,
    adapter: "NONE",
    enabled: true,
  });
  const event = await db().$transaction((tx) =>
    recordEvent(tx, { organizationId: organization.id, type: "invoice.created", data: { amount: "1.00" } }),
  );
  const delivery = await db().webhookDelivery.findFirstOrThrow({ where: { eventId: event.id } });
  return { receiver, delivery };
}

describe("Inngest functions (same domain functions as the in-process engine)", () => {
  it("the cron sweep delivers what is due", async () => {
    const { receiver, delivery } = await dueDelivery([{ status: 200 }]);
    const { result } = await new InngestTestEngine({ function: deliverDueWebhooksCron }).execute();
    expect(result).toBeGreaterThanOrEqual(1);
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
    await new InngestTestEngine({ function: expireCheckoutSessionsCron }).execute();
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
    const { result } = await new InngestTestEngine({ function: scanNetworksCron }).execute();
    expect(result).toBe(false);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect((await db().jobLease.findUniqueOrThrow({ where: { name: "scan-networks" } })).owner).toBe(
      "inst_inprocess",
    );
  });
});
