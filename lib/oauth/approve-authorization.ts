import { assertSignedInRecently, authorize } from "../authority/authorize";
import { hashSecret, newSecret } from "../crypto/tokens";
import type { Db } from "../db/client";
import { forbidden } from "../errors";
import { newId } from "../ids";
import { authorizationRedirect } from "./authorization-redirect";
import { authorizationCodeTtlSeconds, tokenPrefixes } from "./oauth-settings";
import { accessOfScope } from "./scope";
import type { ApprovedRequest } from "./signed-authorization";

/**
 * The user said yes on the consent page: a grant for the chosen organization and a single-use
 * code bound to everything the request said. Returns where to send the browser. Only an owner
 * may grant write, and only with a sign-in within the last 10 minutes (`signedInAt`, the session's);
 * a member grants read (the page offers nothing else), whatever a form says.
 */
export async function approveAuthorization(
  database: Db,
  request: ApprovedRequest,
  organizationId: string,
  signedInAt: Date | null,
): Promise<string> {
  const membership = await database.membership.findUnique({
    where: { organizationId_userId: { organizationId, userId: request.userId } },
  });
  if (!membership) throw forbidden("not_a_member", "You are not a member of that organization.");
  const operation = accessOfScope(request.scope) === "write" ? "oauth.approveWrite" : "oauth.approveRead";
  authorize({ kind: membership.role === "OWNER" ? "owner" : "member" }, operation);
  assertSignedInRecently(operation, signedInAt);
  const code = newSecret(tokenPrefixes.code, 43);
  await database.oAuthGrant.create({
    data: {
      id: newId("oauthGrant"),
      clientId: request.clientId,
      userId: request.userId,
      organizationId,
      scope: request.scope,
      resource: request.resource,
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
      codeHash: hashSecret(code),
      codeExpiresAt: new Date(Date.now() + authorizationCodeTtlSeconds * 1000),
    },
  });
  return authorizationRedirect(request.redirectUri, { code }, request.state);
}
