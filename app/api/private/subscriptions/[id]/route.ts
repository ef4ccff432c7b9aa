import { db } from "@/lib/db/client";
import { apiKeyRoute } from "@/lib/http/route";
import { getSubscription } from "@/lib/subscriptions/get-subscription";
import { serializeSubscriptionDetail } from "@/lib/subscriptions/serialize-subscription";

export const GET = apiKeyRoute<{ id: string }>("subscriptions.read", async ({ organizationId, params }) => ({
  body: serializeSubscriptionDetail(await getSubscription(db(), organizationId, params.id)),
}));
