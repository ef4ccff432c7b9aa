import { assertCheckoutStartAllowed } from "@/lib/checkout/limit-checkout-starts";
import { config } from "@/lib/config";
import { db } from "@/lib/db/client";
import { publicApiRoute } from "@/lib/http/route";
import { clientAddress } from "@/lib/net/client-address";
import { startPaylinkCheckout } from "@/lib/paylinks/start-paylink-checkout";

// GET {pay_url}/<paylink uuid> lands here (next.config.ts rewrites it): a fresh session at the
// paylink's price, then the hosted page of that session. A route handler, not the page, so an
// over-limit buyer gets a real 429 with Retry-After.
export const GET = publicApiRoute<{ id: string }>(async ({ request, params }) => {
  await assertCheckoutStartAllowed({ clientAddress: clientAddress(request.headers), paylinkId: params.id });
  const sessionId = await startPaylinkCheckout(db(), params.id);
  return new Response(null, { status: 303, headers: { Location: `${config().payBaseUrl}/${sessionId}` } });
});
