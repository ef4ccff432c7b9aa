import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { auth, type OAuthClientProvider, UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import type { Page } from "@playwright/test";
import { hashSecret } from "../lib/crypto/tokens";
import { refreshReplayWindowSeconds } from "../lib/oauth/oauth-settings";
import { appPort, appSql, expect, mailboxPath, signIn, test } from "./fixtures";

// The MCP SDK's own client signs in to /mcp the way Claude Code or Cursor do: a 401 names the
// protected resource metadata, the client discovers the authorization server, registers itself,
// sends the user to the consent page (here Chromium, signed in to the dashboard), exchanges the
// code, calls tools, refreshes, and finally loses access when the grant is revoked.

const base = `http://127.0.0.1:${appPort}`;
const mcpUrl = new URL(`${base}/mcp`);
// A loopback callback, as native clients use; Chromium's request to it is answered by the test. Its
// port is one no spec's app listens on (docs-examples' npm start takes +9): a redirect the route
// handler does not see would otherwise reach that app and end on its 404 page.
const callbackPort = appPort + 19;
const callbackUrl = `http://127.0.0.1:${callbackPort}/callback`;

/** An in-memory OAuthClientProvider, as a CLI client keeps in its config directory. */
class TestProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = "";
  authorizationUrl?: URL;
  readonly redirectUrl = callbackUrl;
  readonly clientMetadata: OAuthClientMetadata = {
    client_name: "E2E Agent",
    redirect_uris: [callbackUrl],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
  };
  clientInformation() {
    return this.client;
  }
  saveClientInformation(client: OAuthClientInformationMixed) {
    this.client = client;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

async function connect(provider: TestProvider) {
  const client = new Client({ name: "e2e-agent", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
  return client;
}

/** Opens the authorization URL in the signed-in browser, approves, and returns the code sent back. */
async function approveInBrowser(page: Page, authorizationUrl: URL, expectations: { organization: string }) {
  let callback: URL | undefined;
  await page.route(`${callbackUrl}**`, async (route) => {
    callback = new URL(route.request().url());
    await route.fulfill({ contentType: "text/plain", body: "You can close this window." });
  });
  await page.goto(authorizationUrl.toString());
  await expect(page.getByRole("heading", { name: "Connect E2E Agent?" })).toBeVisible();
  await expect(page.getByText(`127.0.0.1:${callbackPort}`)).toBeVisible();
  await expect(page.getByText(expectations.organization)).toBeVisible();
  await expect(page.getByTestId("consent-access")).toContainText("Read and write");
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByText("You can close this window.")).toBeVisible();
  await page.unroute(`${callbackUrl}**`);
  expect(callback?.searchParams.get("iss")).toBe(base);
  expect(callback?.searchParams.get("state")).toBe(authorizationUrl.searchParams.get("state"));
  return callback?.searchParams.get("code") as string;
}

const postToken = (body: Record<string, string>) =>
  fetch(`${base}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(body),
  });

const mcpStatus = async (accessToken: string) =>
  (
    await fetch(mcpUrl, {
      method: "POST",
      headers: {
        authorization: `Bearer ${accessToken}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    })
  ).status;

test("the MCP SDK client signs in through OAuth, uses tools, refreshes, and loses access when revoked", async ({
  page,
  merchant,
}) => {
  // A hang guard, not a speed check: a sign-in, three consents and two dashboard pages took up to
  // 150 s on a 2-core machine at load 20 and 215 s at load 35, past the 120 s this guard once was.
  test.setTimeout(480_000);
  await signIn(page, merchant.email);
  const provider = new TestProvider();

  // 1. Discovery from the 401, dynamic registration, and the way to the consent page.
  await expect(connect(provider)).rejects.toThrow(UnauthorizedError);
  expect(provider.client?.client_id).toMatch(/^ocl_/);
  const authorizationUrl = provider.authorizationUrl as URL;
  expect(authorizationUrl.origin + authorizationUrl.pathname).toBe(`${base}/oauth/authorize`);
  expect(authorizationUrl.searchParams.get("code_challenge_method")).toBe("S256");
  expect(authorizationUrl.searchParams.get("resource")).toBe(`${base}/mcp`);

  // 2. Consent in Chromium as the signed-in merchant, then the SDK exchanges the code.
  const code = await approveInBrowser(page, authorizationUrl, { organization: "E2E Store" });
  const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
  await transport.finishAuth(code);
  const first = provider.saved as OAuthTokens;
  expect(first.access_token).toMatch(/^cc_at_/);
  expect(first.refresh_token).toMatch(/^cc_rt_/);

  // 3. Tools with the access token.
  const client = await connect(provider);
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name)).toEqual(
    expect.arrayContaining(["service_auth_status", "service_paylinks_create"]),
  );
  const status = await client.callTool({ name: "service_auth_status", arguments: {} });
  expect(status.isError).toBeFalsy();
  expect(status.structuredContent).toMatchObject({
    organization: { id: merchant.organizationId },
    credential: { kind: "oauth" },
    access: "write",
  });
  const paylink = await client.callTool({
    name: "service_paylinks_create",
    arguments: { name: "MCP mug", amount: "12.50", currency: "USD" },
  });
  expect(paylink.isError).toBeFalsy();
  expect(paylink.structuredContent).toMatchObject({ name: "MCP mug", url: expect.stringContaining("/") });
  await client.close();

  // The dashboard lists the connection.
  await page.goto("/dashboard/connected-apps");
  await expect(page.getByRole("cell", { name: "E2E Agent" })).toBeVisible();

  // 4. Refresh through the SDK: a new refresh token every time, and it works.
  expect(await auth(provider, { serverUrl: mcpUrl })).toBe("AUTHORIZED");
  const second = provider.saved as OAuthTokens;
  expect(second.refresh_token).toMatch(/^cc_rt_/);
  expect(second.refresh_token).not.toBe(first.refresh_token);
  expect(second.access_token).not.toBe(first.access_token);
  expect(await mcpStatus(second.access_token)).toBe(200);

  // 5. The old refresh token, replayed once the retry window is over, fails and kills the family.
  // Its rotation is moved back past the window rather than waited out.
  const rotated = await appSql(
    `UPDATE "OAuthToken" SET "rotatedAt" = "rotatedAt" - make_interval(secs => $2)
      WHERE "hash" = $1 AND "rotatedAt" IS NOT NULL RETURNING "id"`,
    [hashSecret(first.refresh_token as string), refreshReplayWindowSeconds + 1],
  );
  expect(rotated).toHaveLength(1);
  const replay = await postToken({
    grant_type: "refresh_token",
    refresh_token: first.refresh_token as string,
    client_id: provider.client?.client_id as string,
  });
  expect(replay.status).toBe(400);
  expect((await replay.json()).error).toBe("invalid_grant");
  expect(await mcpStatus(second.access_token)).toBe(401);
  const killed = await postToken({
    grant_type: "refresh_token",
    refresh_token: second.refresh_token as string,
    client_id: provider.client?.client_id as string,
  });
  expect((await killed.json()).error).toBe("invalid_grant");

  // 6. Connect again, then disconnect from the dashboard: the very next request is refused.
  const reconnect = async () => {
    provider.saved = undefined;
    await expect(connect(provider)).rejects.toThrow(UnauthorizedError);
    const code = await approveInBrowser(page, provider.authorizationUrl as URL, {
      organization: "E2E Store",
    });
    await new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }).finishAuth(code);
    const tokens = provider.saved as unknown as OAuthTokens;
    expect(await mcpStatus(tokens.access_token)).toBe(200);
    return tokens;
  };
  const third = await reconnect();
  await page.goto("/dashboard/connected-apps");
  await page.getByRole("button", { name: "Disconnect" }).click();
  await page.getByRole("button", { name: "Yes, disconnect" }).click();
  await expect(page.getByText("No connected apps")).toBeVisible();
  expect(await mcpStatus(third.access_token)).toBe(401);

  // 7. Connect again, then revoke (RFC 7009): the next request is a 401 with the sign-in challenge.
  const fourth = await reconnect();
  const revoked = await fetch(`${base}/oauth/revoke`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      token: fourth.access_token,
      client_id: provider.client?.client_id as string,
    }),
  });
  expect(revoked.status).toBe(200);
  const after = await fetch(mcpUrl, {
    method: "POST",
    headers: {
      authorization: `Bearer ${fourth.access_token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
  });
  expect(after.status).toBe(401);
  expect(after.headers.get("www-authenticate")).toContain(
    `resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
  );
});

test.describe("the consent page", () => {
  async function registered(redirectUris = [callbackUrl]) {
    const response = await fetch(`${base}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        client_name: "Consent Probe",
        redirect_uris: redirectUris,
        token_endpoint_auth_method: "none",
      }),
    });
    return ((await response.json()) as { client_id: string }).client_id;
  }

  const authorizeUrl = (clientId: string, overrides: Record<string, string> = {}) =>
    `/oauth/authorize?${new URLSearchParams({
      response_type: "code",
      client_id: clientId,
      redirect_uri: callbackUrl,
      code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
      code_challenge_method: "S256",
      scope: "read",
      state: "s-42",
      resource: `${base}/mcp`,
      ...overrides,
    })}`;

  test("signed out: sign in first, then back to the consent page; Deny sends access_denied", async ({
    page,
    merchant,
  }) => {
    const clientId = await registered();
    await page.goto(authorizeUrl(clientId));
    await expect(page).toHaveURL(/\/login\?callbackUrl=/);
    await page.getByLabel("Work email").fill(merchant.email);
    await page.getByRole("button", { name: "Email me a sign-in link" }).click();
    await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();
    await page.goto(mailboxPath());
    await page
      .getByTestId("dev-email")
      .filter({ hasText: `To: ${merchant.email}` })
      .first()
      .getByRole("link")
      .click();

    await expect(page.getByRole("heading", { name: "Connect Consent Probe?" })).toBeVisible();
    await expect(page.getByTestId("consent-access")).toContainText("Read only");
    let callback: URL | undefined;
    await page.route(`${callbackUrl}**`, async (route) => {
      callback = new URL(route.request().url());
      await route.fulfill({ body: "ok" });
    });
    await page.getByRole("button", { name: "Deny" }).click();
    await expect(page.getByText("ok")).toBeVisible();
    expect(callback?.searchParams.get("error")).toBe("access_denied");
    expect(callback?.searchParams.get("state")).toBe("s-42");
    expect(callback?.searchParams.get("code")).toBeNull();
  });

  test("an unregistered redirect URI gets an error page, never a redirect", async ({ page, merchant }) => {
    await signIn(page, merchant.email);
    const clientId = await registered();
    await page.goto(authorizeUrl(clientId, { redirect_uri: "https://evil.example/callback" }));
    await expect(page.getByRole("heading", { name: "This app cannot connect" })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`^${base}/oauth/authorize`));
  });

  test("signed out, a bad request from a registered client gets an error page, never a redirect", async ({
    page,
  }) => {
    const clientId = await registered();
    let redirected = false;
    await page.route(`${callbackUrl}**`, async (route) => {
      redirected = true;
      await route.fulfill({ body: "redirected" });
    });
    const badRequests: Record<string, string>[] = [{ code_challenge_method: "plain" }, { scope: "admin" }];
    for (const overrides of badRequests) {
      const response = await page.request.get(authorizeUrl(clientId, overrides), { maxRedirects: 0 });
      expect(response.status()).toBe(400);
      expect(response.headers().location).toBeUndefined();
      expect(response.headers()["content-type"]).toContain("text/html");
      await page.goto(authorizeUrl(clientId, overrides));
      await expect(page.getByRole("heading", { name: "This app cannot connect" })).toBeVisible();
      await expect(page).toHaveURL(new RegExp(`^${base}/oauth/authorize`));
    }
    expect(redirected).toBe(false);
  });

  test("an omitted scope asks for read only", async ({ page, merchant }) => {
    await signIn(page, merchant.email);
    const clientId = await registered();
    const url = new URL(authorizeUrl(clientId), base);
    url.searchParams.delete("scope");
    await page.goto(url.toString());
    await expect(page.getByTestId("consent-access")).toContainText("Read only");
  });

  test("a member is offered read only, told why, and the approval grants read", async ({
    page,
    merchant,
  }) => {
    await signIn(page, merchant.email);
    await appSql(`UPDATE "Membership" SET "role" = 'MEMBER' WHERE "organizationId" = $1`, [
      merchant.organizationId,
    ]);
    const clientId = await registered();
    await page.goto(authorizeUrl(clientId, { scope: "read write" }));
    await expect(page.getByTestId("consent-access")).toContainText("Read only");
    await expect(page.getByTestId("consent-read-only-reason")).toContainText("only owners");
    // The same form posted without its read-only field is refused: a member cannot grant write.
    const signed = (await page.locator('input[name="request"]').getAttribute("value")) as string;
    const forged = await page.request.post("/oauth/authorize/decision", {
      headers: { origin: base },
      form: { request: signed, decision: "approve" },
      maxRedirects: 0,
    });
    expect(forged.status()).toBe(403);
    let callback: URL | undefined;
    await page.route(`${callbackUrl}**`, async (route) => {
      callback = new URL(route.request().url());
      await route.fulfill({ body: "ok" });
    });
    await page.getByRole("button", { name: "Approve" }).click();
    await expect(page.getByText("ok")).toBeVisible();
    expect(callback?.searchParams.get("code")).toMatch(/^cc_ac_/);
    const grants = await appSql(`SELECT "scope" FROM "OAuthGrant" WHERE "organizationId" = $1`, [
      merchant.organizationId,
    ]);
    expect(grants).toEqual([{ scope: "read" }]);
  });

  test("a client described by a metadata document shows its host and is marked unverified", async ({
    page,
    merchant,
  }) => {
    const documentServer = createServer((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({ client_id: clientId, client_name: "Claude", redirect_uris: [callbackUrl] }),
      );
    });
    await new Promise<void>((resolve) => documentServer.listen(0, "127.0.0.1", resolve));
    const host = `127.0.0.1:${(documentServer.address() as AddressInfo).port}`;
    const clientId = `http://${host}/client.json`;
    try {
      await signIn(page, merchant.email);
      await page.goto(authorizeUrl(clientId));
      await expect(page.getByRole("heading", { name: "Connect Claude?" })).toBeVisible();
      const marking = page.getByTestId("consent-client-host");
      await expect(marking).toContainText(host);
      await expect(marking).toContainText("Unverified");
    } finally {
      documentServer.close();
    }
  });

  test("plain PKCE goes back to the client as invalid_request", async ({ page, merchant }) => {
    await signIn(page, merchant.email);
    const clientId = await registered();
    const response = await page.request.get(authorizeUrl(clientId, { code_challenge_method: "plain" }), {
      maxRedirects: 0,
    });
    expect(response.status()).toBe(307);
    const location = new URL(response.headers().location);
    expect(`${location.origin}${location.pathname}`).toBe(callbackUrl);
    expect(location.searchParams.get("error")).toBe("invalid_request");
    expect(location.searchParams.get("state")).toBe("s-42");
    expect(location.searchParams.get("iss")).toBe(base);
  });

  test("an approval posted from another origin is refused and issues no code", async ({ page, merchant }) => {
    await signIn(page, merchant.email);
    const clientId = await registered();
    await page.goto(authorizeUrl(clientId));
    const signed = await page.locator('input[name="request"]').getAttribute("value");
    const response = await page.request.post("/oauth/authorize/decision", {
      headers: { origin: "https://evil.example" },
      form: { request: signed as string, decision: "approve" },
      maxRedirects: 0,
    });
    expect(response.status()).toBe(403);
    // The same form with an edited signature is refused too.
    const forged = await page.request.post("/oauth/authorize/decision", {
      headers: { origin: base },
      form: { request: `${signed}x`, decision: "approve" },
      maxRedirects: 0,
    });
    expect(forged.status()).toBe(400);
  });
});

test("discovery documents are open to browsers of any origin", async ({ request }) => {
  for (const path of [
    "/.well-known/oauth-protected-resource/mcp",
    "/.well-known/oauth-authorization-server",
  ]) {
    const response = await request.get(path, { headers: { origin: "https://claude.ai" } });
    expect(response.status()).toBe(200);
    expect(response.headers()["access-control-allow-origin"]).toBe("*");
  }
  const prm = await (await request.get("/.well-known/oauth-protected-resource/mcp")).json();
  expect(prm.resource).toBe(`${base}/mcp`);
});
