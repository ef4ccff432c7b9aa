import { describe, expect, it } from "vitest";
import { GET, PUT } from "@/app/api/private/organization/current/route";
import { revokeAgentCredential } from "@/lib/agent-access/revoke-agent-credential";
import { type Db, db } from "@/lib/db/client";
import { clientAddressHeader } from "@/lib/net/client-address";
import { callRoute } from "@/scripts/test-support/call-route";
import { createTestAgentCredential, createTestOrganization } from "@/scripts/test-support/fixtures";
import { authenticateMerchant } from "./authenticate-merchant";

// Read from configuration on first use in this file's process.
process.env.SERVICE_RATE_LIMIT_AUTH_FAILURES_PER_MINUTE = "3";

const path = "/api/private/organization/current";
let addresses = 0;
/** A client address of its own per test, so the failure budget of one test never leaks into another. */
const freshClient = () => ({ [clientAddressHeader]: `198.51.100.${++addresses}` });

const read = (headers: Record<string, string>) =>
  callRoute(GET, path, { headers: { ...freshClient(), ...headers } });
const write = (headers: Record<string, string>, name = "Renamed") =>
  callRoute(PUT, path, { method: "PUT", headers: { ...freshClient(), ...headers }, body: { name } });

describe("merchant credentials on REST (apiKeyRoute → authenticateMerchant)", () => {
  it.each<[string, "read" | "write" | "api_key", number, number]>([
    ["an API key", "api_key", 200, 200],
    ["an agent credential with write access", "write", 200, 200],
    ["an agent credential with read access", "read", 200, 403],
  ])("%s (%s) reads with %i and writes with %i", async (_case, kind, readStatus, writeStatus) => {
    const { organization, auth: apiKeyAuth } = await createTestOrganization("Before");
    const auth =
      kind === "api_key" ? apiKeyAuth : (await createTestAgentCredential(organization.id, kind)).auth;

    const reading = await read(auth);
    expect(reading.status).toBe(readStatus);
    expect(reading.json.data.id).toBe(organization.id);

    const writing = await write(auth);
    expect(writing.status).toBe(writeStatus);
    const stored = await db().organization.findUniqueOrThrow({ where: { id: organization.id } });
    if (writeStatus === 200) {
      expect(writing.json.data.name).toBe("Renamed");
      expect(stored.name).toBe("Renamed");
    } else {
      expect(writing.json.error).toEqual({
        type: "permission_error",
        code: "insufficient_access",
        message: expect.any(String),
      });
      expect(stored.name).toBe("Before");
    }
  });

  it("records when an agent credential was last used", async () => {
    const { organization } = await createTestOrganization();
    const { credential, auth } = await createTestAgentCredential(organization.id);
    expect(credential.lastUsedAt).toBeNull();
    await read(auth);
    const used = await db().agentCredential.findUniqueOrThrow({ where: { id: credential.id } });
    expect(used.lastUsedAt).not.toBeNull();
  });

  it("stores only the hash and a short prefix of an agent credential", async () => {
    const { organization } = await createTestOrganization();
    const { credential, secret } = await createTestAgentCredential(organization.id);
    expect(secret).toMatch(/^sk_agent_[0-9A-Za-z]{40}$/);
    expect(JSON.stringify(credential)).not.toContain(secret);
    expect(secret.startsWith(credential.prefix)).toBe(true);
    expect(credential.prefix).toHaveLength("sk_agent_".length + 4);
  });

  const revokedAgent = async () => {
    const { organization } = await createTestOrganization();
    const { credential, auth } = await createTestAgentCredential(organization.id);
    expect((await read(auth)).status).toBe(200);
    await revokeAgentCredential(db(), { organizationId: organization.id, agentCredentialId: credential.id });
    return auth.authorization;
  };

  it.each<[string, () => Promise<string>, string]>([
    ["a revoked agent credential", revokedAgent, "invalid_agent_credential"],
    [
      "an unknown agent credential",
      async () => `Bearer sk_agent_${"A".repeat(40)}`,
      "invalid_agent_credential",
    ],
    [
      "an agent credential of the wrong shape",
      async () => "Bearer sk_agent_short",
      "invalid_agent_credential",
    ],
    ["an OAuth access token on REST", async () => `Bearer cc_at_${"A".repeat(40)}`, "invalid_api_key"],
    ["a token of no known kind", async () => `Bearer ${"x".repeat(48)}`, "invalid_api_key"],
  ])("rejects %s with 401", async (_case, header, code) => {
    const response = await read({ authorization: await header() });
    expect(response.status).toBe(401);
    expect(response.json.error).toEqual({ type: "authentication_error", code, message: expect.any(String) });
  });
});

describe("authenticateMerchant", () => {
  // Any use of this database fails the test: it proves that no lookup happened.
  const untouchable = new Proxy({} as Db, {
    get: () => {
      throw new Error("the database was asked");
    },
  });

  it.each<[string, string | null]>([
    ["no header", null],
    ["another scheme", "Basic dXNlcjpwYXNz"],
    ["an API key of the wrong length", "Bearer sk_live_short"],
    ["an API key with a foreign character", `Bearer sk_live_${"A".repeat(39)}!`],
    ["an agent credential of the wrong length", `Bearer sk_agent_${"A".repeat(41)}`],
    ["an unknown prefix", `Bearer sk_test_${"A".repeat(40)}`],
    ["an OAuth token of the wrong shape", "Bearer cc_at_short"],
  ])("refuses %s before any database lookup", async (_case, header) => {
    for (const audience of ["rest", "mcp"] as const) {
      await expect(
        authenticateMerchant(untouchable, header, { clientAddress: `shape-${++addresses}`, audience }),
      ).rejects.toMatchObject({ status: 401, type: "authentication_error" });
    }
  });

  it("accepts an agent credential for MCP with its own access", async () => {
    const { organization } = await createTestOrganization();
    const { credential, auth } = await createTestAgentCredential(organization.id, "read");
    const clientAddress = `mcp-${++addresses}`;
    const caller = await authenticateMerchant(db(), auth.authorization, { clientAddress, audience: "mcp" });
    expect(caller).toEqual({
      organizationId: organization.id,
      credential: { kind: "agent", id: credential.id },
      access: "read",
      role: "owner",
      name: credential.agentName,
      apiVersion: "2026-11-26",
      // Owners see it on what the credential asks for (settlement changes).
      clientAddress,
    });
  });

  it("limits failed authentications per client address, then refuses that client before any lookup", async () => {
    const { auth } = await createTestOrganization();
    const attacker = freshClient();
    const bystander = freshClient();
    const guess = (i: number) => ({
      ...attacker,
      authorization: `Bearer sk_agent_${String(i).padStart(40, "0")}`,
    });
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await callRoute(GET, path, { headers: guess(i) })).status);
    expect(statuses).toEqual([401, 401, 401, 429, 429]);

    const limited = await callRoute(GET, path, { headers: { ...attacker, ...auth } });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
    expect(limited.json.error).toMatchObject({ type: "rate_limit_error", code: "rate_limited" });
    await expect(
      authenticateMerchant(untouchable, auth.authorization, {
        clientAddress: attacker[clientAddressHeader],
        audience: "rest",
      }),
    ).rejects.toMatchObject({ status: 429 });

    expect((await callRoute(GET, path, { headers: { ...bystander, ...auth } })).status).toBe(200);
  });
});
