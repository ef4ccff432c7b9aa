import { db } from "@/lib/db/client";
import { readQuery } from "@/lib/http/read-query";
import { apiKeyOrMemberRoute } from "@/lib/http/route";
import { listEndpointDeliveries } from "@/lib/webhooks/list-endpoint-deliveries";
import { serializeDeliveryPage } from "@/lib/webhooks/serialize-webhook";
import { listEndpointDeliveriesQuery } from "@/lib/webhooks/webhook-endpoint-schemas";

// The dashboard's delivery log polls this with the session cookie.
export const GET = apiKeyOrMemberRoute<{ id: string }>(
  "webhooks.read",
  async ({ request, organizationId, params }) => {
    const paging = readQuery(request, listEndpointDeliveriesQuery);
    return {
      body: serializeDeliveryPage(
        await listEndpointDeliveries(db(), organizationId, params.id, paging),
        paging,
      ),
    };
  },
);
