import type { Db } from "../db/client";
import { notFound } from "../errors";
import { hasIdPrefix } from "../ids";
import { applySessionExpiry } from "./apply-session-expiry";

/** The organization's session by id; another organization's id is unknown here. */
export async function getCheckoutSession(database: Db, organizationId: string, id: string, now = new Date()) {
  const session = hasIdPrefix("checkoutSession", id)
    ? await database.checkoutSession.findFirst({ where: { id, organizationId } })
    : null;
  if (!session) throw notFound("checkout session");
  return applySessionExpiry(database, session, now);
}
