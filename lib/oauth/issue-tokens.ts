import { hashSecret, newSecret } from "../crypto/tokens";
import type { Tx } from "../db/client";
import { newId } from "../ids";
import { accessTokenTtlSeconds, grantEndsAt, refreshTokenTtlSeconds, tokenPrefixes } from "./oauth-settings";

export type TokenResponse = {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  refresh_token: string;
  scope: string;
};

/**
 * A new access and refresh token for a grant (stored as hashes), as the token endpoint answers.
 * The access token may carry less than the grant (`scope`, from a refresh that asked for less);
 * the refresh token always keeps the grant's scope (RFC 6749 section 6). Neither outlives the
 * grant's absolute lifetime.
 */
export async function issueTokens(
  tx: Tx,
  grant: { id: string; scope: string; createdAt: Date },
  scope = grant.scope,
): Promise<TokenResponse> {
  const now = Date.now();
  const end = grantEndsAt(grant);
  const expiresAt = (ttlSeconds: number) => new Date(Math.min(now + ttlSeconds * 1000, end));
  const access = newSecret(tokenPrefixes.access, 43);
  const refresh = newSecret(tokenPrefixes.refresh, 43);
  await tx.oAuthToken.createMany({
    data: [
      {
        id: newId("oauthToken"),
        grantId: grant.id,
        kind: "ACCESS",
        hash: hashSecret(access),
        scope: scope === grant.scope ? null : scope,
        expiresAt: expiresAt(accessTokenTtlSeconds),
      },
      {
        id: newId("oauthToken"),
        grantId: grant.id,
        kind: "REFRESH",
        hash: hashSecret(refresh),
        // Sliding: every rotation starts a new 30 days, up to the grant's end.
        expiresAt: expiresAt(refreshTokenTtlSeconds),
      },
    ],
  });
  await tx.oAuthGrant.update({ where: { id: grant.id }, data: { lastUsedAt: new Date(now) } });
  return {
    access_token: access,
    token_type: "Bearer",
    expires_in: Math.max(0, Math.floor((expiresAt(accessTokenTtlSeconds).getTime() - now) / 1000)),
    refresh_token: refresh,
    scope,
  };
}
