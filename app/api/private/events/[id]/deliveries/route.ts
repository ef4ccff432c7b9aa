import { db } from "@/lib/db/client";
import { readQuery } from "@/lib/http/read-query";
import { apiKeyRoute } from "@/lib/http/route";
import { listEventDeliveries } from "@/lib/webhooks/list-event-deliveries";
import { serializeDeliveryPage } from "@/lib/webhooks/serialize-webhook";
import { listEventDeliveriesQuery } from "@/lib/webhooks/webhook-endpoint-schemas";

export const GET = apiKeyRoute<{ id: string }>(
  "webhooks.read",
  async ({ request, organizationId, params }) => {
    const paging = readQuery(request, listEventDeliveriesQuery);
    return {
      body: serializeDeliveryPage(await listEventDeliveries(db(), organizationId, params.id, paging), paging),
    };
  },
);
