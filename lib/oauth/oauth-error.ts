import { ServiceError } from "../errors";

// OAuth endpoints answer with RFC 6749 error codes. They are thrown as the service's one error
// type; lib/http/oauth-route.ts writes them in the RFC's body shape.

export type OAuthErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unauthorized_client"
  | "unsupported_grant_type"
  | "unsupported_response_type"
  | "invalid_scope"
  | "invalid_target"
  | "invalid_redirect_uri"
  | "invalid_client_metadata"
  | "access_denied";

export function oauthError(code: OAuthErrorCode, description: string): ServiceError {
  return code === "invalid_client"
    ? new ServiceError(401, "authentication_error", code, description)
    : new ServiceError(400, "invalid_request_error", code, description);
}
