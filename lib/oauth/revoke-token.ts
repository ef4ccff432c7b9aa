import { hashSecret } from "../crypto/tokens";
import type { Db } from "../db/client";

/**
 * RFC 7009: revoking an access or a refresh token ends its whole grant (RFC 7009 2.1 allows it
 * and a client asking to revoke wants the connection gone). Unknown tokens, and tokens of
 * another client, change nothing and get the same answer, so tokens cannot be probed.
 */
export async function revokeToken(database: Db, client: { id: string }, token: string): Promise<void> {
  const found = await database.oAuthToken.findUnique({
    where: { hash: hashSecret(token) },
    select: { grantId: true, grant: { select: { clientId: true } } },
  });
  if (!found || found.grant.clientId !== client.id) return;
  await database.oAuthGrant.updateMany({
    where: { id: found.grantId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
}
