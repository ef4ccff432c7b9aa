import type { Db } from "../db/client";
import { ServiceError } from "../errors";
import { authorizationRedirect } from "./authorization-redirect";
import { findClient } from "./find-client";
import type { AuthorizationRequest } from "./oauth-schemas";
import { mcpResource } from "./oauth-settings";
import { matchesRegisteredRedirectUri } from "./redirect-uri";
import { normalizeScope } from "./scope";

export type AuthorizationCheck =
  /** The client or redirect URI cannot be trusted: show the problem, never redirect (RFC 6749 4.1.2.1). */
  | { kind: "refuse"; message: string }
  /**
   * A bad request from a known client: send the error back to its redirect URI, but only once the
   * user has signed in; before that, show `message` (RFC 9700 section 4.11.2: no open redirect).
   */
  | { kind: "redirect"; location: string; message: string }
  | {
      kind: "valid";
      client: { id: string; name: string };
      redirectUri: string;
      codeChallenge: string;
      scope: string;
      resource: string;
      state?: string;
    };

const codeChallengeShape = /^[A-Za-z0-9_-]{43}$/;

/** Checks an authorization request in the order RFC 6749 prescribes. */
export async function validateAuthorizationRequest(
  database: Db,
  request: AuthorizationRequest,
): Promise<AuthorizationCheck> {
  let client: Awaited<ReturnType<typeof findClient>>;
  try {
    client = await findClient(database, request.client_id);
  } catch (error) {
    if (error instanceof ServiceError) return { kind: "refuse", message: error.message };
    throw error;
  }
  if (!client) return { kind: "refuse", message: "This app is not registered here (unknown client_id)." };

  const redirectUri =
    request.redirect_uri ?? (client.redirectUris.length === 1 ? client.redirectUris[0] : undefined);
  if (!redirectUri) return { kind: "refuse", message: "The request names no redirect_uri." };
  if (!matchesRegisteredRedirectUri(redirectUri, client.redirectUris)) {
    return { kind: "refuse", message: "The redirect_uri is not one this app registered." };
  }

  const fail = (error: string, description: string): AuthorizationCheck => ({
    kind: "redirect",
    location: authorizationRedirect(redirectUri, { error, error_description: description }, request.state),
    message: description,
  });
  if (request.response_type !== "code") {
    return fail("unsupported_response_type", "Only response_type=code is supported.");
  }
  if (!request.code_challenge)
    return fail("invalid_request", "PKCE is required: send code_challenge (S256).");
  if (request.code_challenge_method !== "S256") {
    return fail("invalid_request", "Only code_challenge_method=S256 is supported.");
  }
  if (!codeChallengeShape.test(request.code_challenge)) {
    return fail("invalid_request", "code_challenge must be a base64url SHA-256 digest.");
  }
  const scope = normalizeScope(request.scope);
  if (scope === null) return fail("invalid_scope", "Scopes are read and write.");
  const resource = request.resource ?? mcpResource();
  if (resource !== mcpResource()) return fail("invalid_target", `The only resource is ${mcpResource()}.`);

  return {
    kind: "valid",
    client: { id: client.id, name: client.name },
    redirectUri,
    codeChallenge: request.code_challenge,
    scope,
    resource,
    state: request.state,
  };
}
