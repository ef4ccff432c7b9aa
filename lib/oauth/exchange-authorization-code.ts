import { hashSecret } from "../crypto/tokens";
import type { Db } from "../db/client";
import { issueTokens, type TokenResponse } from "./issue-tokens";
import { oauthError } from "./oauth-error";
import { mcpResource, tokenShape } from "./oauth-settings";
import { verifierMatchesChallenge } from "./pkce";
import { revokeGrantFamily } from "./revoke-grant-family";

type CodeExchange = { code: string; redirect_uri?: string; code_verifier?: string; resource?: string };

const badCode = () =>
  oauthError("invalid_grant", "The authorization code is invalid, expired or already used.");

/**
 * `grant_type=authorization_code`: redeems a code once, for the client, redirect URI, PKCE
 * verifier and resource it was issued for. A second redemption revokes what the first one got.
 */
export async function exchangeAuthorizationCode(
  database: Db,
  client: { id: string },
  input: CodeExchange,
): Promise<TokenResponse> {
  if (!input.code.startsWith("cc_ac_") || !tokenShape.test(input.code)) throw badCode();
  const grant = await database.oAuthGrant.findUnique({ where: { codeHash: hashSecret(input.code) } });
  if (!grant || grant.clientId !== client.id) throw badCode();
  if (grant.codeUsedAt) {
    await revokeGrantFamily(database, grant.id, "authorization code reused");
    throw badCode();
  }
  if (grant.revokedAt || grant.codeExpiresAt.getTime() <= Date.now()) throw badCode();
  if (input.redirect_uri !== undefined && input.redirect_uri !== grant.redirectUri) {
    throw oauthError("invalid_grant", "redirect_uri differs from the authorization request's.");
  }
  if (
    input.resource !== undefined &&
    (input.resource !== grant.resource || input.resource !== mcpResource())
  ) {
    throw oauthError("invalid_target", `The only resource is ${mcpResource()}.`);
  }
  if (!input.code_verifier) throw oauthError("invalid_request", "PKCE is required: send code_verifier.");
  if (!verifierMatchesChallenge(input.code_verifier, grant.codeChallenge)) {
    throw oauthError("invalid_grant", "code_verifier does not match the code_challenge.");
  }
  const issued = await database.$transaction(async (tx) => {
    // Redeemed atomically: of two concurrent exchanges exactly one sees the code unused.
    const { count } = await tx.oAuthGrant.updateMany({
      where: { id: grant.id, codeUsedAt: null, revokedAt: null },
      data: { codeUsedAt: new Date() },
    });
    return count === 1 ? issueTokens(tx, grant) : null;
  });
  if (!issued) {
    await revokeGrantFamily(database, grant.id, "authorization code reused");
    throw badCode();
  }
  return issued;
}
