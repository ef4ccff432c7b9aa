import type { Tx } from "../db/client";
import { insertRows } from "../db/insert-rows";
import { newId } from "../ids";
import { notifyDeliveriesDue } from "../jobs/deliveries-due";
import { deliveriesCreated } from "./transact-with-events";

/**
 * A delivery's first row: pending, due at `at`, nothing attempted yet. The start of the delivery
 * state machine (lib/webhooks/delivery-state.ts); a redelivery by hand starts over from it too.
 */
export function newDelivery(event: { id: string; organizationId: string }, endpointId: string, at: Date) {
  return {
    id: newId("webhookDelivery"),
    organizationId: event.organizationId,
    endpointId,
    eventId: event.id,
    status: "PENDING" as const,
    roundAttempts: 0,
    roundStartedAt: null,
    firstAttemptAt: null,
    nextAttemptAt: at,
  };
}

/**
 * One delivery per enabled endpoint of each event's organization (or only `endpointId`, for test
 * events), due now. Runs inside the transaction that records the events: the outbox.
 */
export async function fanOutEvents(
  tx: Tx,
  events: { id: string; organizationId: string; createdAt: Date }[],
  endpointId?: string,
) {
  const organizationIds = [...new Set(events.map((event) => event.organizationId))];
  const endpoints = await tx.webhookEndpoint.findMany({
    where: {
      organizationId: { in: organizationIds },
      enabled: true,
      ...(endpointId ? { id: endpointId } : {}),
    },
    select: { id: true, organizationId: true },
  });
  if (endpoints.length === 0) return 0;
  const deliveries = events.flatMap((event) =>
    endpoints
      .filter((endpoint) => endpoint.organizationId === event.organizationId)
      .map((endpoint) => newDelivery(event, endpoint.id, event.createdAt)),
  );
  const updatedAt = new Date();
  const { length: count } = await insertRows(
    tx,
    "WebhookDelivery",
    deliveries.map((delivery) => ({ ...delivery, updatedAt })),
  );
  await notifyDeliveriesDue(tx);
  deliveriesCreated(
    tx,
    deliveries.map((delivery) => delivery.id),
  );
  return count;
}
