import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { sendTestEvent } from "@/lib/webhooks/send-test-event";
import { createTestReceiverEndpoint } from "@/scripts/test-support/fixtures";
import { backgroundTasks } from "../tasks/background-tasks";
import { startPeriodicTask } from "./periodic-task";

// What SIGTERM does to the delivery worker (scripts/serve.ts stops the engine the same way):
// stopped mid-burst, attempts under way finish and are recorded, claims not yet attempted go back
// at once; the next worker then delivers the rest. Each event reaches the receiver exactly once.
const deliverTask = backgroundTasks.find((task) => task.name === "deliver-webhooks");

async function until(check: () => boolean | Promise<boolean>, timeoutMs: number) {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; ) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("timed out");
}

describe("stopping the delivery worker mid-burst", () => {
  it("finishes what is under way, gives back the rest, and loses or doubles nothing", async () => {
    const events = 60;
    const { receiver, organization, endpoint } = await createTestReceiverEndpoint(
      Array.from({ length: events }, () => ({ status: 200, delayMs: 400 })),
    );
    try {
      const stop = startPeriodicTask(db(), deliverTask as (typeof backgroundTasks)[number]);
      const sent: string[] = [];
      for (let index = 0; index < events; index += 1)
        sent.push((await sendTestEvent(db(), organization.id, endpoint.id)).id);
      await until(() => receiver.received.length >= 3, 30_000);

      await stop();
      const deliveries = await db().webhookDelivery.findMany({
        where: { endpointId: endpoint.id },
        include: { attempts: true },
      });
      const attempted = deliveries.filter((delivery) => delivery.attempts.length > 0);
      // Every request the receiver saw is recorded, and nothing is left claimed by the stopped worker.
      expect(attempted).toHaveLength(receiver.received.length);
      expect(attempted.every((delivery) => delivery.status === "DELIVERED")).toBe(true);
      expect(
        deliveries.filter((delivery) => delivery.lockedUntil && delivery.lockedUntil > new Date()),
      ).toEqual([]);
      expect(receiver.received.length).toBeLessThan(events);

      const stopNext = startPeriodicTask(db(), deliverTask as (typeof backgroundTasks)[number]);
      try {
        await until(() => receiver.received.length >= events, 60_000);
      } finally {
        await stopNext();
      }
      const receivedIds = receiver.received.map((request) => request.headers["x-service-event-id"]);
      expect(receivedIds).toHaveLength(events);
      expect(new Set(receivedIds)).toEqual(new Set(sent));
      expect(await db().webhookAttempt.count({ where: { delivery: { endpointId: endpoint.id } } })).toBe(
        events,
      );
    } finally {
      await receiver.close();
    }
  }, 120_000);
});
