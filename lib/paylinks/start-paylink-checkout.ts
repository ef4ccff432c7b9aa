import { createCheckoutSession } from "../checkout/create-checkout-session";
import type { Db } from "../db/client";
import { getPublicPaylink } from "./get-public-paylink";

/** A buyer opened a paylink's address: a fresh session at the paylink's price, for the hosted page. */
export async function startPaylinkCheckout(database: Db, paylinkId: string) {
  const paylink = await getPublicPaylink(database, paylinkId);
  const created = await createCheckoutSession(database, {
    organizationId: paylink.organizationId,
    request: { mode: "paylink", paylinkId: paylink.id, expiresInMinutes: 60 },
    idempotency: null,
  });
  return (created.body as { id: string }).id;
}
