import { hashSecret } from "../crypto/tokens";
import { type Db, sqlPool } from "../db/client";
import { accessTokenShape, mcpResource } from "../oauth/oauth-settings";
import { accessOfScope } from "../oauth/scope";
import type { MerchantCaller } from "./merchant-caller";

// As with API keys, "last used" is written at most once a minute, not on every request.
const lastUsedResolutionMs = 60_000;

type Row = {
  grantId: string;
  userId: string;
  role: "OWNER" | "MEMBER";
  clientName: string;
  organizationId: string;
  scope: string;
  lastUsedAt: Date | null;
  apiVersion: string;
};

/**
 * The caller an OAuth access token (`cc_at_…`) stands for, or null. A token counts only while it
 * is unexpired, issued for our MCP resource, its grant is not revoked and its user is still a
 * member of the organization, so revocation, removal and a change of role take effect on the next
 * request.
 */
export async function authenticateOAuthAccessToken(
  database: Db,
  token: string,
): Promise<MerchantCaller | null> {
  if (!accessTokenShape.test(token)) return null;
  // Every MCP request runs this lookup, so it skips the ORM (see sqlPool).
  const { rows } = await sqlPool(database).query<Row>(
    `SELECT g."id" AS "grantId", g."userId", g."organizationId", COALESCE(t."scope", g."scope") AS "scope",
            g."lastUsedAt",
            m."role"::text AS "role", c."name" AS "clientName", o."apiVersion"
       FROM "OAuthToken" t
       JOIN "OAuthGrant" g ON g."id" = t."grantId"
       JOIN "OAuthClient" c ON c."id" = g."clientId"
       JOIN "Organization" o ON o."id" = g."organizationId"
       JOIN "Membership" m ON m."userId" = g."userId" AND m."organizationId" = g."organizationId"
      WHERE t."hash" = $1 AND t."kind" = 'ACCESS' AND t."expiresAt" > now()
        AND g."revokedAt" IS NULL AND g."resource" = $2`,
    [hashSecret(token), mcpResource()],
  );
  const grant = rows[0];
  if (!grant) return null;
  const now = new Date();
  if (!grant.lastUsedAt || now.getTime() - grant.lastUsedAt.getTime() > lastUsedResolutionMs) {
    await database.oAuthGrant.update({ where: { id: grant.grantId }, data: { lastUsedAt: now } });
  }
  return {
    organizationId: grant.organizationId,
    credential: { kind: "oauth", id: grant.grantId },
    access: accessOfScope(grant.scope),
    // The approving user's role as it is now: a demoted owner's tokens lose owner powers at once.
    role: grant.role === "OWNER" ? "owner" : "member",
    name: grant.clientName,
    userId: grant.userId,
    apiVersion: grant.apiVersion,
  };
}
