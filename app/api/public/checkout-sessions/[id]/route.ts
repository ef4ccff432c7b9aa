import { getPublicCheckoutSession } from "@/lib/checkout/get-public-checkout-session";
import { serializePublicCheckoutSession } from "@/lib/checkout/serialize-checkout-session";
import { db } from "@/lib/db/client";
import { publicApiRoute } from "@/lib/http/route";

export const GET = publicApiRoute<{ id: string }>(async ({ params }) => ({
  body: serializePublicCheckoutSession(await getPublicCheckoutSession(db(), params.id)),
}));
