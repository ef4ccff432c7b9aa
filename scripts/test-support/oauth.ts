import { createHash, randomBytes } from "node:crypto";
import { POST as register } from "../../app/oauth/register/route";
import { POST as token } from "../../app/oauth/token/route";
import { db } from "../../lib/db/client";
import { newId } from "../../lib/ids";
import { approveAuthorization } from "../../lib/oauth/approve-authorization";
import { issueTokens } from "../../lib/oauth/issue-tokens";
import { mcpResource } from "../../lib/oauth/oauth-settings";
import { callRoute } from "./call-route";
import { createTestOrganization } from "./fixtures";

// OAuth steps for integration tests: register a client over the real route, approve as the
// organization's owner (what the consent page's POST does), and call the token endpoint.

export const redirectUri = "http://127.0.0.1:43210/callback";

export function pkcePair() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/** A form-encoded POST, as RFC 6749 clients send. */
export function postForm(
  handler: typeof token,
  path: string,
  parameters: Record<string, string | undefined>,
  headers: Record<string, string> = {},
) {
  const form = new URLSearchParams(
    Object.entries(parameters).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  return callRoute(handler, path, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      "x-client-address": `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
      ...headers,
    },
    body: form.toString(),
  });
}

export async function registerTestClient(metadata: Record<string, unknown> = {}) {
  const response = await callRoute(register, "/oauth/register", {
    headers: {
      "x-client-address": `10.8.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
    },
    body: {
      client_name: "Test agent",
      redirect_uris: [redirectUri],
      token_endpoint_auth_method: "none",
      ...metadata,
    },
  });
  if (response.status !== 201) throw new Error(`registration failed: ${response.text}`);
  return response.json as { client_id: string; client_secret?: string };
}

/** An organization with its owner, a registered client and an approved authorization code. */
export async function authorizedCode(options: { scope?: string; clientId?: string } = {}) {
  const { organization } = await createTestOrganization();
  const owner = await db().membership.findFirstOrThrow({ where: { organizationId: organization.id } });
  const clientId = options.clientId ?? (await registerTestClient()).client_id;
  const pkce = pkcePair();
  const location = await approveAuthorization(
    db(),
    {
      clientId,
      redirectUri,
      codeChallenge: pkce.challenge,
      scope: options.scope ?? "read write",
      resource: mcpResource(),
      state: "xyz",
      userId: owner.userId,
      expiresAt: Math.floor(Date.now() / 1000) + 600,
    },
    organization.id,
    // The owner just signed in (granting write needs a recent sign-in).
    new Date(),
  );
  const code = new URL(location).searchParams.get("code") as string;
  return { organization, owner, clientId, pkce, code, location };
}

export function exchangeCode(
  flow: { clientId: string; code: string; pkce: { verifier: string } },
  overrides: Record<string, string | undefined> = {},
) {
  return postForm(token, "/oauth/token", {
    grant_type: "authorization_code",
    code: flow.code,
    redirect_uri: redirectUri,
    code_verifier: flow.pkce.verifier,
    client_id: flow.clientId,
    resource: mcpResource(),
    ...overrides,
  });
}

export function refresh(
  clientId: string,
  refreshToken: string,
  overrides: Record<string, string | undefined> = {},
) {
  return postForm(token, "/oauth/token", {
    grant_type: "refresh_token",
    refresh_token: refreshToken,
    client_id: clientId,
    resource: mcpResource(),
    ...overrides,
  });
}

/** An OAuth access token as the token endpoint hands it out, for a grant of `userId` with `scope`. */
export async function oauthAccessToken(organizationId: string, userId: string, scope: string) {
  const client = await db().oAuthClient.create({
    data: { id: newId("oauthClient"), name: "Test client", redirectUris: ["http://127.0.0.1:1/cb"] },
  });
  const grant = await db().oAuthGrant.create({
    data: {
      id: newId("oauthGrant"),
      clientId: client.id,
      userId,
      organizationId,
      scope,
      resource: mcpResource(),
      redirectUri: "http://127.0.0.1:1/cb",
      codeChallenge: "x",
      codeHash: newId("oauthGrant"),
      codeExpiresAt: new Date(Date.now() + 60_000),
      codeUsedAt: new Date(),
    },
  });
  const tokens = await db().$transaction((tx) => issueTokens(tx, grant));
  return `Bearer ${tokens.access_token}`;
}
