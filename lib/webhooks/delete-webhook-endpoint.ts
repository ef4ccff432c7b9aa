import type { Db } from "../db/client";
import { getWebhookEndpoint } from "./get-webhook-endpoint";

/** Deletes an endpoint and its delivery log; pending deliveries to it stop. */
export async function deleteWebhookEndpoint(database: Db, organizationId: string, id: string) {
  const endpoint = await getWebhookEndpoint(database, organizationId, id);
  await database.webhookEndpoint.delete({ where: { id } });
  return endpoint;
}
