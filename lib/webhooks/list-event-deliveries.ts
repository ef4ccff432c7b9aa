import type { Db } from "../db/client";
import { notFound } from "../errors";
import type { Paging } from "../validation/fields";
import { listDeliveries } from "./list-deliveries";

/** The deliveries of one of the organization's events, to every endpoint. */
export async function listEventDeliveries(
  database: Db,
  organizationId: string,
  eventId: string,
  paging: Paging,
) {
  const event = await database.event.findFirst({
    where: { id: eventId, organizationId },
    select: { id: true },
  });
  if (!event) throw notFound("event");
  return listDeliveries(database, organizationId, { eventId }, paging);
}
