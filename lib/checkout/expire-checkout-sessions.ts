import type { Db } from "../db/client";
import { liveSessionStatuses } from "../session-state/session-state";

/** Marks every open or processing session past its expiry EXPIRED (the periodic expiry job). */
export async function expireCheckoutSessions(database: Db, now = new Date()): Promise<number> {
  const { count } = await database.checkoutSession.updateMany({
    where: { status: { in: [...liveSessionStatuses] }, expiresAt: { lte: now } },
    data: { status: "EXPIRED" },
  });
  return count;
}
