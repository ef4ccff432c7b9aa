import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pkcePair, redirectUri, registerTestClient } from "@/scripts/test-support/oauth";
import { db } from "../db/client";
import { mcpResource } from "./oauth-settings";
import { validateAuthorizationRequest } from "./validate-authorization-request";

const { challenge } = pkcePair();

async function check(overrides: Record<string, string | undefined>, clientId?: string) {
  const id = clientId ?? (await registerTestClient()).client_id;
  const request = {
    response_type: "code",
    client_id: id,
    redirect_uri: redirectUri,
    code_challenge: challenge,
    code_challenge_method: "S256",
    scope: "read write",
    state: "st-1",
    resource: mcpResource(),
    ...overrides,
  };
  return validateAuthorizationRequest(db(), request as Parameters<typeof validateAuthorizationRequest>[1]);
}

describe("validateAuthorizationRequest", () => {
  it("accepts a complete request", async () => {
    const result = await check({});
    expect(result).toMatchObject({
      kind: "valid",
      redirectUri,
      scope: "read write",
      resource: mcpResource(),
      state: "st-1",
    });
  });

  it.each([
    [
      "a loopback redirect on another port (RFC 8252)",
      { redirect_uri: "http://127.0.0.1:5999/callback" },
      "read write",
    ],
    ["no scope (read: least privilege)", { scope: undefined }, "read"],
    ["only write (implies read)", { scope: "write" }, "read write"],
    ["read only", { scope: "read" }, "read"],
    ["no resource (the MCP server)", { resource: undefined }, "read write"],
  ])("accepts %s", async (_case, overrides, scope) => {
    expect(await check(overrides)).toMatchObject({ kind: "valid", scope });
  });

  it("reads an omitted scope as read even for a client registered with read and write", async () => {
    const { client_id } = await registerTestClient({ scope: "read write" });
    expect(await check({ scope: undefined }, client_id)).toMatchObject({ kind: "valid", scope: "read" });
  });

  // Client and redirect URI problems must never send the browser anywhere (RFC 6749 4.1.2.1).
  it.each<[string, Record<string, string>]>([
    ["an unknown client", { client_id: "ocl_unknown" }],
    ["a foreign redirect URI", { redirect_uri: "https://evil.example/callback" }],
    ["a redirect URI on another path", { redirect_uri: "http://127.0.0.1:43210/other" }],
    ["a redirect URI with a different host", { redirect_uri: "http://localhost:43210/callback" }],
  ])("refuses %s on our own page", async (_case, overrides) => {
    const result = await check(overrides, overrides.client_id);
    expect(result.kind).toBe("refuse");
  });

  it.each([
    ["missing PKCE", { code_challenge: undefined, code_challenge_method: undefined }, "invalid_request"],
    ["plain PKCE", { code_challenge_method: "plain" }, "invalid_request"],
    ["no PKCE method", { code_challenge_method: undefined }, "invalid_request"],
    ["a malformed challenge", { code_challenge: "short" }, "invalid_request"],
    ["an unknown scope", { scope: "read admin" }, "invalid_scope"],
    ["another resource", { resource: "https://other.example/mcp" }, "invalid_target"],
    ["response_type=token", { response_type: "token" }, "unsupported_response_type"],
  ])("sends %s back to the client as an error", async (_case, overrides, error) => {
    const result = await check(overrides);
    expect(result.kind).toBe("redirect");
    const location = new URL((result as { location: string }).location);
    expect(`${location.origin}${location.pathname}`).toBe(redirectUri);
    expect(location.searchParams.get("error")).toBe(error);
    expect(location.searchParams.get("state")).toBe("st-1");
    expect(location.searchParams.get("iss")).toBe("http://localhost:3000");
    expect(location.searchParams.get("code")).toBeNull();
    // What the page shows instead while nobody is signed in (no open redirect).
    expect((result as { message: string }).message).toEqual(expect.any(String));
  });
});

describe("Client ID Metadata Documents", () => {
  let server: Server;
  let base: string;
  const documents = new Map<string, { status?: number; body: string }>();
  let fetches = 0;

  beforeAll(async () => {
    server = createServer((request, response) => {
      fetches += 1;
      const document = documents.get(request.url ?? "");
      response.writeHead(document?.status ?? (document ? 200 : 404), { "content-type": "application/json" });
      response.end(document?.body ?? "{}");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const serve = (path: string, body: unknown, status?: number) => {
    documents.set(path, { body: typeof body === "string" ? body : JSON.stringify(body), status });
    return `${base}${path}`;
  };

  it("accepts a client described by its document, and caches it", async () => {
    const clientId = `${base}/good.json`;
    serve("/good.json", { client_id: clientId, client_name: "Doc Agent", redirect_uris: [redirectUri] });
    const before = fetches;
    expect(await check({}, clientId)).toMatchObject({
      kind: "valid",
      client: { id: clientId, name: "Doc Agent" },
    });
    expect(await check({}, clientId)).toMatchObject({ kind: "valid" });
    expect(fetches - before).toBe(1);
  });

  it.each([
    [
      "names another client_id",
      (url: string) => serve("/other.json", { client_id: `${url}x`, redirect_uris: [redirectUri] }),
    ],
    [
      "has no redirect URIs",
      () => serve("/none.json", { client_id: `${base}/none.json`, redirect_uris: [] }),
    ],
    ["is not JSON", () => serve("/text.json", "hello")],
    ["is missing (404)", () => `${base}/missing.json`],
    [
      "is too large",
      () =>
        serve("/big.json", {
          client_id: `${base}/big.json`,
          redirect_uris: [redirectUri],
          pad: "x".repeat(20_000),
        }),
    ],
    [
      "registers an http redirect URI off loopback",
      () =>
        serve("/http.json", { client_id: `${base}/http.json`, redirect_uris: ["http://evil.example/cb"] }),
    ],
  ])("refuses a document that %s", async (_case, make) => {
    const clientId = make(`${base}/other.json`);
    expect((await check({}, clientId)).kind).toBe("refuse");
  });
});
