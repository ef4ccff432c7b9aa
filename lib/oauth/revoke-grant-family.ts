import type { Db, Tx } from "../db/client";
import { log } from "../log";

/**
 * Ends a grant and so every token issued from it. Used when a code or refresh token is presented
 * a second time: one of the two holders is an attacker, and we cannot tell which.
 */
export async function revokeGrantFamily(database: Db | Tx, grantId: string, reason: string) {
  const { count } = await database.oAuthGrant.updateMany({
    where: { id: grantId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  if (count > 0) log.warn({ grantId, reason }, "oauth grant revoked: credential reuse");
}
