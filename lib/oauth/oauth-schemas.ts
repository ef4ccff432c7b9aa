import { z } from "zod";

// Request shapes of the OAuth endpoints. Parameters are strings (form-encoded per RFC 6749);
// unknown parameters are ignored, as the RFCs require.

const text = (max: number) => z.string().trim().min(1).max(max);

/** RFC 7591 client metadata we read; the rest of a registration is ignored. */
export const clientRegistrationSchema = z.object({
  redirect_uris: z.array(z.string().max(2000)).min(1).max(10),
  client_name: text(100).optional(),
  token_endpoint_auth_method: z
    .enum(["none", "client_secret_post", "client_secret_basic"])
    .default("client_secret_basic"),
  grant_types: z
    .array(z.enum(["authorization_code", "refresh_token"]))
    .default(["authorization_code", "refresh_token"]),
  response_types: z.array(z.literal("code")).default(["code"]),
  scope: z.string().max(200).optional(),
  client_uri: z.url().max(2000).optional(),
});
export type ClientRegistration = z.output<typeof clientRegistrationSchema>;

/** A Client ID Metadata Document: the registration fields plus the client's own id. */
export const clientMetadataDocumentSchema = clientRegistrationSchema.extend({
  client_id: z.url(),
  token_endpoint_auth_method: z.literal("none").default("none"),
});

export const authorizationRequestSchema = z.object({
  response_type: z.string().optional(),
  client_id: z.string().min(1).max(2000),
  redirect_uri: z.string().max(2000).optional(),
  code_challenge: z.string().optional(),
  code_challenge_method: z.string().optional(),
  scope: z.string().max(200).optional(),
  state: z.string().max(2000).optional(),
  resource: z.string().max(2000).optional(),
});
export type AuthorizationRequest = z.output<typeof authorizationRequestSchema>;

export const tokenRequestSchema = z.discriminatedUnion("grant_type", [
  z.object({
    grant_type: z.literal("authorization_code"),
    code: z.string().max(200),
    redirect_uri: z.string().max(2000).optional(),
    code_verifier: z.string().max(200).optional(),
    resource: z.string().max(2000).optional(),
  }),
  z.object({
    grant_type: z.literal("refresh_token"),
    refresh_token: z.string().max(200),
    scope: z.string().max(200).optional(),
    resource: z.string().max(2000).optional(),
  }),
]);
export type TokenRequest = z.output<typeof tokenRequestSchema>;

export const revocationRequestSchema = z.object({
  token: z.string().max(200),
  token_type_hint: z.string().optional(),
});

/** Client credentials as sent in the body (client_secret_post, or a public client's id). */
export const clientCredentialsSchema = z.object({
  client_id: z.string().max(2000).optional(),
  client_secret: z.string().max(200).optional(),
});

/** The dashboard's "Disconnect" form. */
export const revokeGrantSchema = z.strictObject({ grantId: z.string().max(64) });

/**
 * The consent page's answer: the signed request, the organization chosen, the decision, and
 * `scope=read` when the page offered less than the request asked for (a member's consent).
 */
export const consentDecisionSchema = z.object({
  request: z.string().max(8000),
  organizationId: z.string().max(64).optional(),
  scope: z.literal("read").optional(),
  decision: z.enum(["approve", "deny"]),
});
