import type { Tx } from "../db/client";
import { newId } from "../ids";
import { notifyDeliveriesDue } from "../jobs/deliveries-due";
import { deliveriesCreated } from "./transact-with-events";

/**
 * One delivery per enabled endpoint of the event's organization (or only `endpointId`, for test
 * events), due now. Runs inside the transaction that records the event: the outbox.
 */
export async function fanOutEvent(
  tx: Tx,
  event: { id: string; organizationId: string; createdAt: Date },
  endpointId?: string,
) {
  const endpoints = await tx.webhookEndpoint.findMany({
    where: { organizationId: event.organizationId, enabled: true, ...(endpointId ? { id: endpointId } : {}) },
    select: { id: true },
  });
  if (endpoints.length === 0) return 0;
  const deliveries = endpoints.map((endpoint) => ({
    id: newId("webhookDelivery"),
    organizationId: event.organizationId,
    endpointId: endpoint.id,
    eventId: event.id,
    status: "PENDING" as const,
    nextAttemptAt: event.createdAt,
  }));
  const { count } = await tx.webhookDelivery.createMany({ data: deliveries });
  await notifyDeliveriesDue(tx);
  deliveriesCreated(
    tx,
    deliveries.map((delivery) => delivery.id),
  );
  return count;
}
