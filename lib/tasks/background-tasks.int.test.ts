import { afterEach, describe, expect, inject, it } from "vitest";
import { closeDb, createDb, db } from "@/lib/db/client";
import { recordEvent } from "@/lib/events/record-event";
import { transactWithEvents } from "@/lib/events/transact-with-events";
import { markOverdueInvoices } from "@/lib/payments/mark-overdue-invoices";
import { createTestInvoice, createTestReceiverEndpoint } from "@/scripts/test-support/fixtures";
import { startPeriodicTask } from "../jobs/periodic-task";
import { backgroundTasks } from "./background-tasks";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The in-process delivery worker, polling only once a minute: anything sooner was a wake-up. */
async function startDeliveryWorker(intervalMs = 60_000) {
  const { receiver, organization } = await createTestReceiverEndpoint();
  cleanups.push(() => receiver.close());
  const task = backgroundTasks.find((candidate) => candidate.name === "deliver-webhooks");
  if (!task) throw new Error("no delivery task");
  cleanups.push(startPeriodicTask(db(), { ...task, intervalMs }));
  // Its first pass (at start) and the listener's catch-up pass find nothing; let them finish.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  return { receiver, organizationId: organization.id };
}

/** Milliseconds from `committedAt` to the receiver's first request, once the attempt is recorded. */
async function firstAttemptAfter(
  receiver: { received: { receivedAt: Date }[] },
  organizationId: string,
  committedAt: number,
) {
  await expect
    .poll(() => db().webhookDelivery.count({ where: { organizationId, status: "DELIVERED" } }), {
      timeout: 30_000,
      interval: 20,
    })
    .toBe(1);
  return receiver.received[0].receivedAt.getTime() - committedAt;
}

describe("the in-process delivery worker", () => {
  it("attempts a delivery as soon as the transaction that created it commits", async () => {
    const { receiver, organizationId } = await startDeliveryWorker();
    await createTestInvoice(organizationId, { amount: "10.00", status: "AWAITING_PAYMENT" });
    // A live event: the deadline job records invoice.overdue.
    await markOverdueInvoices(db());
    const latency = await firstAttemptAfter(receiver, organizationId, Date.now());
    // Milliseconds on a quiet machine; the bound leaves room for a loaded one, far from the poll.
    expect(latency).toBeLessThan(30_000);
  });

  it("hears deliveries committed by another process (LISTEN/NOTIFY; polling on the embedded database)", async () => {
    // PGlite does not pass notifications between connections: there, the poll is the fallback.
    const embedded = inject("testDatabase").mode === "embedded";
    const { receiver, organizationId } = await startDeliveryWorker(embedded ? 300 : 60_000);
    const otherProcess = createDb(process.env.DATABASE_URL as string, 1);
    cleanups.push(() => closeDb(otherProcess));
    await otherProcess.$transaction((tx) =>
      recordEvent(tx, { organizationId, type: "invoice.created", data: { amount: "1.00" } }),
    );
    const latency = await firstAttemptAfter(receiver, organizationId, Date.now());
    // Milliseconds on a quiet machine; the bound leaves room for a loaded one, far from the poll.
    expect(latency).toBeLessThan(30_000);
  });

  it("a receiver taking its time does not hold up deliveries that come due meanwhile", async () => {
    const slow = await createTestReceiverEndpoint([{ status: 200, delayMs: 8_000 }]);
    cleanups.push(() => slow.receiver.close());
    const { receiver, organizationId } = await startDeliveryWorker();
    const event = (id: string) =>
      transactWithEvents(db(), (tx) =>
        recordEvent(tx, { organizationId: id, type: "invoice.created", data: { amount: "1.00" } }),
      );
    await event(slow.organization.id);
    // That pass now waits on the slow receiver.
    await expect.poll(() => slow.receiver.received.length).toBe(1);
    await event(organizationId);
    expect(await firstAttemptAfter(receiver, organizationId, Date.now())).toBeLessThan(4_000);
    await firstAttemptAfter(slow.receiver, slow.organization.id, Date.now());
  });
});
