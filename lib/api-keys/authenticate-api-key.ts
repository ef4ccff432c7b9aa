import { type Db, sqlPool } from "../db/client";
import { unauthenticated } from "../errors";
import { hashApiKey, looksLikeApiKey } from "./api-key-secret";

// Writing last-used on every request would turn each read into a write; once a minute is enough
// for "last used" to be useful.
const lastUsedResolutionMs = 60_000;

type KeyRow = { id: string; organizationId: string; revokedAt: Date | null; lastUsedAt: Date | null };

const invalidKey = () =>
  unauthenticated("invalid_api_key", "The API key is not valid. Check for typos, or create a new key.");

/**
 * Resolves a Bearer header to the organization whose live key it carries. Unknown and revoked
 * keys take the same path (one indexed lookup by hash) and get the same answer.
 */
export async function authenticateApiKey(database: Db, authorization: string | null) {
  if (!authorization) {
    throw unauthenticated(
      "missing_api_key",
      "No API key provided. Send it as `Authorization: Bearer sk_live_…`.",
    );
  }
  const match = /^Bearer (\S+)$/.exec(authorization);
  if (!match) {
    throw unauthenticated(
      "invalid_authorization_header",
      "The Authorization header must be `Bearer <API key>`.",
    );
  }
  const secret = match[1];
  // Every authenticated request runs this lookup, so it skips the ORM (see sqlPool).
  const { rows } = await sqlPool(database).query<KeyRow>(
    'SELECT "id", "organizationId", "revokedAt", "lastUsedAt" FROM "ApiKey" WHERE "hash" = $1',
    [hashApiKey(secret)],
  );
  const key = rows[0];
  if (!key || key.revokedAt || !looksLikeApiKey(secret)) throw invalidKey();

  const now = new Date();
  if (!key.lastUsedAt || now.getTime() - key.lastUsedAt.getTime() > lastUsedResolutionMs) {
    await database.apiKey.update({ where: { id: key.id }, data: { lastUsedAt: now } });
  }
  return { organizationId: key.organizationId, apiKeyId: key.id };
}
