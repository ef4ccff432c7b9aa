import { db } from "@/lib/db/client";
import { pagingQuery } from "@/lib/http/fields";
import { readQuery } from "@/lib/http/read-query";
import { apiKeyRoute } from "@/lib/http/route";
import { listEndpointDeliveries } from "@/lib/webhooks/list-endpoint-deliveries";
import { serializeDeliveryPage } from "@/lib/webhooks/serialize-webhook";

export const GET = apiKeyRoute<{ id: string }>(async ({ request, organizationId, params }) => {
  const paging = readQuery(request, pagingQuery);
  return {
    body: serializeDeliveryPage(
      await listEndpointDeliveries(db(), organizationId, params.id, paging),
      paging,
    ),
  };
});
