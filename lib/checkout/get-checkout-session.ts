import { type Db, sqlPool } from "../db/client";
import { notFound } from "../errors";
import { type CheckoutSession, Prisma } from "../generated/prisma/client";
import { hasIdPrefix } from "../ids";
import { applySessionExpiry } from "./apply-session-expiry";

type SessionRow = Omit<CheckoutSession, "amount"> & { amount: string };

/** The organization's session by id; another organization's id is unknown here. */
export async function getCheckoutSession(database: Db, organizationId: string, id: string, now = new Date()) {
  if (!hasIdPrefix("checkoutSession", id)) throw notFound("checkout session");
  // Merchants poll this; like the key lookup it skips the ORM's per-query cost (see sqlPool).
  const { rows } = await sqlPool(database).query<SessionRow>(
    'SELECT * FROM "CheckoutSession" WHERE "id" = $1 AND "organizationId" = $2',
    [id, organizationId],
  );
  if (rows.length === 0) throw notFound("checkout session");
  return applySessionExpiry(database, { ...rows[0], amount: new Prisma.Decimal(rows[0].amount) }, now);
}
