import type { Db } from "../db/client";
import { notFound } from "../errors";
import { hasIdPrefix } from "../ids";
import { publicBrandSelect } from "../organizations/serialize-organization";
import { applySessionExpiry } from "./apply-session-expiry";

/** A session as the hosted checkout page sees it, by id alone. */
export async function getPublicCheckoutSession(database: Db, id: string, now = new Date()) {
  const session = hasIdPrefix("checkoutSession", id)
    ? await database.checkoutSession.findUnique({
        where: { id },
        include: { organization: { select: publicBrandSelect } },
      })
    : null;
  if (!session) throw notFound("checkout session");
  return applySessionExpiry(database, session, now);
}
