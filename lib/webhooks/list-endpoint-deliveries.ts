import type { Db } from "../db/client";
import type { Paging } from "../validation/fields";
import { getWebhookEndpoint } from "./get-webhook-endpoint";
import { listDeliveries } from "./list-deliveries";

/** The delivery log of one of the organization's endpoints. */
export async function listEndpointDeliveries(
  database: Db,
  organizationId: string,
  endpointId: string,
  paging: Paging,
) {
  const endpoint = await getWebhookEndpoint(database, organizationId, endpointId);
  return listDeliveries(database, organizationId, { endpointId: endpoint.id }, paging);
}
