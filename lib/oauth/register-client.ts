import { hashSecret, newSecret } from "../crypto/tokens";
import type { Db } from "../db/client";
import { newId } from "../ids";
import { oauthError } from "./oauth-error";
import type { ClientRegistration } from "./oauth-schemas";
import { redirectUriProblem } from "./redirect-uri";
import { normalizeScope } from "./scope";

/**
 * RFC 7591 dynamic registration. Public clients (`none`, what MCP clients use) get only an id;
 * confidential ones also get a secret, shown in this answer only and stored as its hash.
 */
export async function registerClient(database: Db, input: ClientRegistration) {
  for (const uri of input.redirect_uris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw oauthError("invalid_redirect_uri", `Redirect URI ${uri} ${problem}.`);
  }
  const scope = input.scope === undefined ? undefined : normalizeScope(input.scope);
  if (scope === null) throw oauthError("invalid_client_metadata", "scope may only name read and write.");
  const confidential = input.token_endpoint_auth_method !== "none";
  const secret = confidential ? newSecret("cc_cs_", 43) : undefined;
  const client = await database.oAuthClient.create({
    data: {
      id: newId("oauthClient"),
      name: input.client_name ?? "Unnamed app",
      redirectUris: input.redirect_uris,
      tokenEndpointAuthMethod: input.token_endpoint_auth_method,
      secretHash: secret === undefined ? null : hashSecret(secret),
      scope,
    },
  });
  return {
    client_id: client.id,
    client_id_issued_at: Math.floor(client.createdAt.getTime() / 1000),
    client_name: client.name,
    redirect_uris: client.redirectUris,
    grant_types: input.grant_types,
    response_types: input.response_types,
    token_endpoint_auth_method: client.tokenEndpointAuthMethod,
    ...(scope ? { scope } : {}),
    ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
  };
}
