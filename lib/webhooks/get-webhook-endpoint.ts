import type { Db } from "../db/client";
import { notFound } from "../errors";

export async function getWebhookEndpoint(database: Db, organizationId: string, id: string) {
  const endpoint = await database.webhookEndpoint.findFirst({ where: { id, organizationId } });
  if (!endpoint) throw notFound("webhook endpoint");
  return endpoint;
}
