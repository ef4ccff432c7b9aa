import { db } from "@/lib/db/client";
import { readQuery } from "@/lib/http/read-query";
import { apiKeyOrMemberRoute } from "@/lib/http/route";
import { pagingQuery } from "@/lib/validation/fields";
import { listEndpointDeliveries } from "@/lib/webhooks/list-endpoint-deliveries";
import { serializeDeliveryPage } from "@/lib/webhooks/serialize-webhook";

// The dashboard's delivery log polls this with the session cookie.
export const GET = apiKeyOrMemberRoute<{ id: string }>(
  "webhooks.read",
  async ({ request, organizationId, params }) => {
    const paging = readQuery(request, pagingQuery);
    return {
      body: serializeDeliveryPage(
        await listEndpointDeliveries(db(), organizationId, params.id, paging),
        paging,
      ),
    };
  },
);
