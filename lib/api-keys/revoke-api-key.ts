import { announceCredentialChange } from "../credential-cache/announce-credential-change";
import type { Db } from "../db/client";
import { notFound } from "../errors";

/** Revokes a key of the organization; revoking twice keeps the first revocation time. */
export async function revokeApiKey(database: Db, input: { organizationId: string; apiKeyId: string }) {
  const key = await database.apiKey.findFirst({
    where: { id: input.apiKeyId, organizationId: input.organizationId },
  });
  if (!key) throw notFound("API key", "apiKeyId");
  if (key.revokedAt) return key;
  const revoked = await database.apiKey.update({ where: { id: key.id }, data: { revokedAt: new Date() } });
  await announceCredentialChange();
  return revoked;
}
