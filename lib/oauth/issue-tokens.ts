import { hashSecret, newSecret } from "../crypto/tokens";
import type { Tx } from "../db/client";
import { newId } from "../ids";
import { accessTokenTtlSeconds, refreshTokenTtlSeconds, tokenPrefixes } from "./oauth-settings";

export type TokenResponse = {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  refresh_token: string;
  scope: string;
};

/** A new access and refresh token for a grant (stored as hashes), as the token endpoint answers. */
export async function issueTokens(tx: Tx, grant: { id: string; scope: string }): Promise<TokenResponse> {
  const now = Date.now();
  const access = newSecret(tokenPrefixes.access, 43);
  const refresh = newSecret(tokenPrefixes.refresh, 43);
  await tx.oAuthToken.createMany({
    data: [
      {
        id: newId("oauthToken"),
        grantId: grant.id,
        kind: "ACCESS",
        hash: hashSecret(access),
        expiresAt: new Date(now + accessTokenTtlSeconds * 1000),
      },
      {
        id: newId("oauthToken"),
        grantId: grant.id,
        kind: "REFRESH",
        hash: hashSecret(refresh),
        // Sliding: every rotation starts a new 30 days.
        expiresAt: new Date(now + refreshTokenTtlSeconds * 1000),
      },
    ],
  });
  await tx.oAuthGrant.update({ where: { id: grant.id }, data: { lastUsedAt: new Date(now) } });
  return {
    access_token: access,
    token_type: "Bearer",
    expires_in: accessTokenTtlSeconds,
    refresh_token: refresh,
    scope: grant.scope,
  };
}
