import { db } from "@/lib/db/client";
import { readQuery } from "@/lib/http/read-query";
import { apiKeyRoute } from "@/lib/http/route";
import { listSubscriptions } from "@/lib/subscriptions/list-subscriptions";
import { serializeSubscription } from "@/lib/subscriptions/serialize-subscription";
import { listSubscriptionsQuery } from "@/lib/subscriptions/subscription-schemas";
import { listPage } from "@/lib/validation/list-page";

export const GET = apiKeyRoute("subscriptions.read", async ({ request, organizationId }) => {
  const query = readQuery(request, listSubscriptionsQuery);
  const { subscriptions, total } = await listSubscriptions(db(), organizationId, query);
  return { body: listPage(subscriptions.map(serializeSubscription), query, total) };
});
