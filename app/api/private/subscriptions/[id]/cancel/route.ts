import { db } from "@/lib/db/client";
import { readJson } from "@/lib/http/read-json";
import { apiKeyRoute } from "@/lib/http/route";
import { cancelSubscription } from "@/lib/subscriptions/cancel-subscription";
import { serializeSubscriptionDetail } from "@/lib/subscriptions/serialize-subscription";
import { cancelSubscriptionSchema } from "@/lib/subscriptions/subscription-schemas";

export const POST = apiKeyRoute<{ id: string }>(
  "subscriptions.cancel",
  async ({ request, organizationId, params }) => {
    const { atPeriodEnd } = await readJson(request, cancelSubscriptionSchema);
    return {
      body: serializeSubscriptionDetail(
        await cancelSubscription(db(), organizationId, { id: params.id, atPeriodEnd }),
      ),
    };
  },
);
