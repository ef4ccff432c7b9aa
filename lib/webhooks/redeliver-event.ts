import type { Db } from "../db/client";
import { notFound } from "../errors";
import { newDelivery } from "../events/fan-out-event";
import { announceDeliveries } from "../jobs/announce-deliveries";
import { getWebhookEndpoint } from "./get-webhook-endpoint";

/** Sends one event to one endpoint again, by hand, as a new delivery on a fresh schedule. */
export async function redeliverEvent(
  database: Db,
  organizationId: string,
  endpointId: string,
  eventId: string,
  now = new Date(),
) {
  const endpoint = await getWebhookEndpoint(database, organizationId, endpointId);
  const event = await database.event.findFirst({ where: { id: eventId, organizationId } });
  if (!event) throw notFound("event", "eventId");
  const delivery = await database.webhookDelivery.create({
    data: newDelivery(event, endpoint.id, now),
    include: { attempts: true, event: { select: { type: true } } },
  });
  await announceDeliveries([delivery.id]);
  return delivery;
}
