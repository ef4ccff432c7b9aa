import { db } from "@/lib/db/client";
import { readJson } from "@/lib/http/read-json";
import { apiKeyRoute } from "@/lib/http/route";
import { redeliverEvent } from "@/lib/webhooks/redeliver-event";
import { serializeWebhookDelivery } from "@/lib/webhooks/serialize-webhook";
import { redeliverSchema } from "@/lib/webhooks/webhook-endpoint-schemas";

export const POST = apiKeyRoute<{ id: string }>(
  "webhooks.test",
  async ({ request, organizationId, params }) => {
    const { eventId } = await readJson(request, redeliverSchema);
    return {
      status: 202,
      body: serializeWebhookDelivery(await redeliverEvent(db(), organizationId, params.id, eventId)),
    };
  },
);
