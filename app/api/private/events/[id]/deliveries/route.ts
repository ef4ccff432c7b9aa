import { db } from "@/lib/db/client";
import { readQuery } from "@/lib/http/read-query";
import { apiKeyRoute } from "@/lib/http/route";
import { pagingQuery } from "@/lib/validation/fields";
import { listEventDeliveries } from "@/lib/webhooks/list-event-deliveries";
import { serializeDeliveryPage } from "@/lib/webhooks/serialize-webhook";

export const GET = apiKeyRoute<{ id: string }>(
  "webhooks.read",
  async ({ request, organizationId, params }) => {
    const paging = readQuery(request, pagingQuery);
    return {
      body: serializeDeliveryPage(await listEventDeliveries(db(), organizationId, params.id, paging), paging),
    };
  },
);
