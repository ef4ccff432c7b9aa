import { describe, expect, it } from "vitest";
import { GET as authorizationServer } from "@/app/.well-known/oauth-authorization-server/route";
import { GET as protectedResource } from "@/app/.well-known/oauth-protected-resource/mcp/route";
import { db } from "@/lib/db/client";
import { callRoute } from "@/scripts/test-support/call-route";
import { POST } from "./route";

const register = (body: unknown, address = "10.1.2.3") =>
  callRoute(POST, "/oauth/register", { headers: { "x-client-address": address }, body });

describe("POST /oauth/register", () => {
  it("registers a public client: an id, no secret", async () => {
    const response = await register(
      {
        client_name: "Claude Code",
        redirect_uris: ["http://localhost:33418/callback"],
        token_endpoint_auth_method: "none",
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        software_id: "ignored",
      },
      "10.1.0.1",
    );
    expect(response.status).toBe(201);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.json).toEqual({
      client_id: expect.stringMatching(/^ocl_/),
      client_id_issued_at: expect.any(Number),
      client_name: "Claude Code",
      redirect_uris: ["http://localhost:33418/callback"],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    });
    const row = await db().oAuthClient.findUniqueOrThrow({ where: { id: response.json.client_id } });
    expect(row.secretHash).toBeNull();
  });

  it.each<[string, unknown, string]>([
    [
      "an http redirect URI off loopback",
      { redirect_uris: ["http://app.example/cb"] },
      "invalid_redirect_uri",
    ],
    [
      "a redirect URI with a fragment",
      { redirect_uris: ["https://app.example/cb#x"] },
      "invalid_redirect_uri",
    ],
    ["a custom scheme", { redirect_uris: ["javascript:alert(1)"] }, "invalid_redirect_uri"],
    ["no redirect URIs", { redirect_uris: [] }, "invalid_client_metadata"],
    [
      "too many redirect URIs",
      { redirect_uris: Array(11).fill("https://app.example/cb") },
      "invalid_client_metadata",
    ],
    [
      "a client name of 101 characters",
      { redirect_uris: ["https://a.example/cb"], client_name: "n".repeat(101) },
      "invalid_client_metadata",
    ],
    [
      "an implicit grant",
      { redirect_uris: ["https://a.example/cb"], grant_types: ["implicit"] },
      "invalid_client_metadata",
    ],
    [
      "an unknown scope",
      { redirect_uris: ["https://a.example/cb"], scope: "admin" },
      "invalid_client_metadata",
    ],
    ["a body that is not JSON", "{", "invalid_client_metadata"],
  ])("refuses %s and stores nothing", async (_case, body, error) => {
    const before = await db().oAuthClient.count();
    const response = await callRoute(POST, "/oauth/register", {
      headers: { "x-client-address": "10.1.0.2", "content-type": "application/json" },
      body,
    });
    expect(response.status).toBe(400);
    expect(response.json).toEqual({ error, error_description: expect.any(String) });
    expect(await db().oAuthClient.count()).toBe(before);
  });

  it("is rate limited per address", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      statuses.push(
        (
          await register(
            { redirect_uris: ["https://a.example/cb"], token_endpoint_auth_method: "none" },
            "10.1.0.9",
          )
        ).status,
      );
    }
    expect(statuses.slice(0, 20).every((status) => status === 201)).toBe(true);
    expect(statuses[20]).toBe(429);
  });
});

describe("discovery documents", () => {
  it("protected resource metadata names the configured MCP resource, open to any origin", async () => {
    const response = await callRoute(protectedResource, "/.well-known/oauth-protected-resource/mcp", {
      headers: { host: "evil.example", "x-forwarded-host": "evil.example" },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.json).toMatchObject({
      resource: "http://localhost:3000/mcp",
      authorization_servers: ["http://localhost:3000"],
      scopes_supported: ["read", "write"],
      bearer_methods_supported: ["header"],
    });
  });

  it("authorization server metadata lists the endpoints and S256", async () => {
    const response = await callRoute(authorizationServer, "/.well-known/oauth-authorization-server");
    expect(response.json).toMatchObject({
      issuer: "http://localhost:3000",
      authorization_endpoint: "http://localhost:3000/oauth/authorize",
      token_endpoint: "http://localhost:3000/oauth/token",
      registration_endpoint: "http://localhost:3000/oauth/register",
      revocation_endpoint: "http://localhost:3000/oauth/revoke",
      response_types_supported: ["code"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: expect.arrayContaining(["none"]),
      scopes_supported: ["read", "write"],
      client_id_metadata_document_supported: true,
    });
  });
});
