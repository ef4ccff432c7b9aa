import type { Db } from "../db/client";
import { notFound } from "../errors";
import { hasIdPrefix } from "../ids";
import { applySessionExpiry } from "./apply-session-expiry";

/** A session as the hosted checkout page sees it, by id alone. */
export async function getPublicCheckoutSession(database: Db, id: string, now = new Date()) {
  const session = hasIdPrefix("checkoutSession", id)
    ? await database.checkoutSession.findUnique({
        where: { id },
        include: {
          organization: {
            select: {
              name: true,
              brandDisplayName: true,
              brandColor: true,
              brandLogo: { select: { id: true } },
            },
          },
        },
      })
    : null;
  if (!session) throw notFound("checkout session");
  return applySessionExpiry(database, session, now);
}
