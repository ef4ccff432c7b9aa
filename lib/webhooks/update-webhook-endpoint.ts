import type { Db } from "../db/client";
import { getWebhookEndpoint } from "./get-webhook-endpoint";
import type { UpdateWebhookEndpointInput } from "./webhook-endpoint-schemas";

export async function updateWebhookEndpoint(
  database: Db,
  organizationId: string,
  id: string,
  input: UpdateWebhookEndpointInput,
) {
  await getWebhookEndpoint(database, organizationId, id);
  return database.webhookEndpoint.update({ where: { id }, data: input });
}
