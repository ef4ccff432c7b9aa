import { config } from "../config";

// The fixed parameters of the authorization server (docs/mcp.md, "OAuth"). The issuer and the
// MCP resource come from SERVICE_BASE_URL, never from request headers, which a client can forge.

export const accessTokenTtlSeconds = 60 * 60;
export const refreshTokenTtlSeconds = 30 * 24 * 60 * 60;
export const authorizationCodeTtlSeconds = 10 * 60;
/** A grant's absolute lifetime from its approval: refreshing never extends access past it. */
export const grantLifetimeSeconds = 90 * 24 * 60 * 60;

/** When a grant approved at `createdAt` ends for good. */
export function grantEndsAt(grant: { createdAt: Date }): number {
  return grant.createdAt.getTime() + grantLifetimeSeconds * 1000;
}
/** How long a rotated refresh token still returns the same answer to an honest concurrent retry. */
export const refreshReplayWindowSeconds = 10;

export const tokenPrefixes = { access: "cc_at_", refresh: "cc_rt_", code: "cc_ac_" } as const;
export const tokenShape = /^cc_(at|rt|ac)_[0-9A-Za-z]{43}$/;
export const accessTokenShape = /^cc_at_[0-9A-Za-z]{43}$/;

export const supportedScopes = ["read", "write"] as const;

export function issuer(): string {
  return config().baseUrl;
}

/** The one resource (RFC 8707 audience) tokens are issued for: the MCP server. */
export function mcpResource(): string {
  return `${config().baseUrl}/mcp`;
}
