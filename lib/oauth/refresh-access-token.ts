import { openSecret, sealSecret } from "../crypto/secret-box";
import { hashSecret } from "../crypto/tokens";
import type { Db } from "../db/client";
import { issueTokens, type TokenResponse } from "./issue-tokens";
import { oauthError } from "./oauth-error";
import { grantEndsAt, mcpResource, refreshReplayWindowSeconds, tokenShape } from "./oauth-settings";
import { revokeGrantFamily } from "./revoke-grant-family";
import { normalizeScope } from "./scope";

type Refresh = { refresh_token: string; scope?: string; resource?: string };

const badToken = () => oauthError("invalid_grant", "The refresh token is invalid, expired or revoked.");

/**
 * `grant_type=refresh_token` with rotation: every refresh token works once. Presenting one again
 * revokes the whole grant, except within a few seconds of its rotation, when it is an honest
 * concurrent retry and gets the same answer the first request got.
 */
export async function refreshAccessToken(
  database: Db,
  client: { id: string },
  input: Refresh,
): Promise<TokenResponse> {
  if (!input.refresh_token.startsWith("cc_rt_") || !tokenShape.test(input.refresh_token)) throw badToken();
  const hash = hashSecret(input.refresh_token);
  const token = await database.oAuthToken.findUnique({ where: { hash }, include: { grant: true } });
  if (token?.kind !== "REFRESH" || token.grant.clientId !== client.id) throw badToken();
  const { grant } = token;
  if (grant.revokedAt || token.expiresAt.getTime() <= Date.now() || grantEndsAt(grant) <= Date.now()) {
    throw badToken();
  }
  if (input.resource !== undefined && input.resource !== mcpResource()) {
    throw oauthError("invalid_target", `The only resource is ${mcpResource()}.`);
  }
  // A refresh may ask for less than the grant (the new access token carries only that), never more.
  let scope = grant.scope;
  if (input.scope !== undefined) {
    const asked = normalizeScope(input.scope);
    if (asked === null || (asked.includes("write") && !grant.scope.includes("write"))) {
      throw oauthError("invalid_scope", "A refresh cannot widen the granted scope.");
    }
    scope = asked;
  }

  if (!token.rotatedAt) {
    const issued = await database
      .$transaction(async (tx) => {
        const response = await issueTokens(tx, grant, scope);
        // Compare-and-swap: of two concurrent refreshes exactly one rotates this token.
        const { count } = await tx.oAuthToken.updateMany({
          where: { id: token.id, rotatedAt: null },
          data: { rotatedAt: new Date(), replaySealed: sealSecret(JSON.stringify(response)) },
        });
        if (count !== 1) throw new LostRotation();
        return response;
      })
      .catch((error: unknown) => {
        if (error instanceof LostRotation) return null;
        throw error;
      });
    if (issued) return issued;
  }

  // Used before: the answer it got, if this is a retry within the window; otherwise reuse.
  const rotated = await database.oAuthToken.findUniqueOrThrow({
    where: { id: token.id },
    include: { grant: true },
  });
  const withinWindow =
    rotated.rotatedAt !== null &&
    Date.now() - rotated.rotatedAt.getTime() < refreshReplayWindowSeconds * 1000;
  if (withinWindow && rotated.replaySealed && !rotated.grant.revokedAt) {
    return JSON.parse(openSecret(rotated.replaySealed)) as TokenResponse;
  }
  await revokeGrantFamily(database, grant.id, "refresh token reused");
  throw badToken();
}

class LostRotation extends Error {}
