import type { Db } from "../db/client";
import type { CheckoutSession } from "../generated/prisma/client";
import { transitionSession } from "../session-state/session-state";

/**
 * Persists EXPIRED for a session read after its expiry, so reads and the expiry job agree and an
 * expired session can never be paid, however late the job runs.
 */
export async function applySessionExpiry<S extends CheckoutSession>(
  database: Db,
  session: S,
  now: Date,
): Promise<S> {
  const transition = transitionSession(session, "expire", now);
  if (!transition.ok) return session;
  await database.checkoutSession.updateMany({
    where: { id: session.id, status: session.status },
    data: { status: "EXPIRED" },
  });
  return { ...session, status: "EXPIRED" };
}
