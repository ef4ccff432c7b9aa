import { db } from "@/lib/db/client";
import { readOptionalJson } from "@/lib/http/read-json";
import { apiKeyRoute } from "@/lib/http/route";
import { sendTestEvent } from "@/lib/webhooks/send-test-event";
import { sendTestEventSchema } from "@/lib/webhooks/webhook-endpoint-schemas";

export const POST = apiKeyRoute<{ id: string }>(
  "webhooks.test",
  async ({ request, organizationId, params }) => {
    const { type } = await readOptionalJson(request, sendTestEventSchema);
    const event = await sendTestEvent(db(), organizationId, params.id, type);
    return { status: 202, body: { eventId: event.id, type: event.type, livemode: event.livemode } };
  },
);
