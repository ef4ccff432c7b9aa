import type { Db, Tx } from "../db/client";
import { createWebhookEndpoint } from "./create-webhook-endpoint";

/**
 * Keeps the organization's default webhook URL (organization settings) as an endpoint: created on
 * first set (its secret is obtained by rotating it), repointed on change, removed when cleared.
 */
export async function upsertDefaultWebhookEndpoint(
  database: Db | Tx,
  organizationId: string,
  url: string | null,
) {
  const existing = await database.webhookEndpoint.findFirst({ where: { organizationId, isDefault: true } });
  if (url === null) {
    if (existing) await database.webhookEndpoint.delete({ where: { id: existing.id } });
    return null;
  }
  if (existing) return database.webhookEndpoint.update({ where: { id: existing.id }, data: { url } });
  const { endpoint } = await createWebhookEndpoint(database, organizationId, {
    name: "Default (organization settings)",
    url,
    adapter: "NONE",
    enabled: true,
    isDefault: true,
  });
  return endpoint;
}
