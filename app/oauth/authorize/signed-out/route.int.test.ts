import { describe, expect, it } from "vitest";
import { mcpResource } from "@/lib/oauth/oauth-settings";
import { callRoute } from "@/scripts/test-support/call-route";
import { pkcePair, redirectUri, registerTestClient } from "@/scripts/test-support/oauth";
import { GET } from "./route";

const { challenge } = pkcePair();

async function authorize(overrides: Record<string, string | undefined> = {}) {
  const { client_id } = await registerTestClient();
  const query = new URLSearchParams(
    Object.entries({
      response_type: "code",
      client_id,
      redirect_uri: redirectUri,
      code_challenge: challenge,
      code_challenge_method: "S256",
      scope: "read",
      state: "st",
      resource: mcpResource(),
      ...overrides,
    }).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  return callRoute(GET, `/oauth/authorize/signed-out?${query}`, {
    headers: { "x-client-address": "198.51.100.20" },
  });
}

// Before anyone signed in, a registered client's bad request is never sent back to its
// redirect_uri: anyone can register a client, and that would make us an open redirector.
describe("GET /oauth/authorize without a session", () => {
  it.each<[string, Record<string, string | undefined>]>([
    ["plain PKCE", { code_challenge_method: "plain" }],
    ["no PKCE", { code_challenge: undefined, code_challenge_method: undefined }],
    ["an unknown scope", { scope: "admin" }],
    ["response_type=token", { response_type: "token" }],
    ["another resource", { resource: "https://other.example/mcp" }],
    ["a foreign redirect URI", { redirect_uri: "https://evil.example/cb" }],
    ["an unknown client", { client_id: "ocl_unknown" }],
  ])("answers %s with an HTML error page (400), not a redirect", async (_case, overrides) => {
    const response = await authorize(overrides);
    expect(response.status).toBe(400);
    expect(response.headers.get("location")).toBeNull();
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.text).toContain("This app cannot connect");
    expect(response.text).not.toContain(redirectUri);
  });

  it("sends a good request to sign-in, and back to the consent page after it", async () => {
    const response = await authorize();
    expect(response.status).toBe(307);
    const location = new URL(response.headers.get("location") as string);
    expect(location.pathname).toBe("/login");
    const back = new URL(location.searchParams.get("callbackUrl") as string, "http://localhost:3000");
    expect(back.pathname).toBe("/oauth/authorize");
    expect(back.searchParams.get("code_challenge")).toBe(challenge);
  });

  it("escapes what it shows", async () => {
    const response = await authorize({ scope: "<script>x</script>" });
    expect(response.status).toBe(400);
    expect(response.text).not.toContain("<script>x");
  });
});
