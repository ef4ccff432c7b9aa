import type { Db } from "../db/client";

export function listWebhookEndpoints(database: Db, organizationId: string) {
  return database.webhookEndpoint.findMany({ where: { organizationId }, orderBy: { createdAt: "asc" } });
}
