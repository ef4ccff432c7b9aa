import { getCheckoutSession } from "@/lib/checkout/get-checkout-session";
import { serializeCheckoutSessionDetail } from "@/lib/checkout/serialize-checkout-session";
import { db } from "@/lib/db/client";
import { apiKeyRoute } from "@/lib/http/route";

export const GET = apiKeyRoute<{ id: string }>(
  "checkoutSessions.read",
  async ({ organizationId, params }) => ({
    body: serializeCheckoutSessionDetail(await getCheckoutSession(db(), organizationId, params.id)),
  }),
);
