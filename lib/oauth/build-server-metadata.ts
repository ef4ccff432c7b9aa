import { config } from "../config";
import { issuer, mcpResource, supportedScopes } from "./oauth-settings";

/** RFC 9728 protected resource metadata of the MCP server. */
export function buildProtectedResourceMetadata() {
  return {
    resource: mcpResource(),
    authorization_servers: [issuer()],
    scopes_supported: [...supportedScopes],
    bearer_methods_supported: ["header"],
    resource_name: `${config().serviceName} MCP server`,
  };
}

/** RFC 8414 authorization server metadata. */
export function buildAuthorizationServerMetadata() {
  const base = issuer();
  return {
    issuer: base,
    authorization_endpoint: `${base}/oauth/authorize`,
    token_endpoint: `${base}/oauth/token`,
    registration_endpoint: `${base}/oauth/register`,
    revocation_endpoint: `${base}/oauth/revoke`,
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: ["none", "client_secret_post", "client_secret_basic"],
    revocation_endpoint_auth_methods_supported: ["none", "client_secret_post", "client_secret_basic"],
    scopes_supported: [...supportedScopes],
    client_id_metadata_document_supported: true,
    authorization_response_iss_parameter_supported: true,
  };
}
