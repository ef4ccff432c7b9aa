import { db } from "@/lib/db/client";
import { apiKeyRoute } from "@/lib/http/route";
import { sendTestEvent } from "@/lib/webhooks/send-test-event";

export const POST = apiKeyRoute<{ id: string }>(async ({ organizationId, params }) => {
  const event = await sendTestEvent(db(), organizationId, params.id);
  return { status: 202, body: { eventId: event.id, type: event.type, livemode: event.livemode } };
});
