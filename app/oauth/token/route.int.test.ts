import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { authenticateOAuthAccessToken } from "@/lib/merchant-auth/authenticate-access-token";
import { authenticateMerchant } from "@/lib/merchant-auth/authenticate-merchant";
import { mcpResource } from "@/lib/oauth/oauth-settings";
import {
  authorizedCode,
  exchangeCode,
  pkcePair,
  postForm,
  redirectUri,
  refresh,
  registerTestClient,
} from "@/scripts/test-support/oauth";
import { POST as revoke } from "../revoke/route";
import { POST as token } from "./route";

const tokenCount = () => db().oAuthToken.count();

describe("POST /oauth/token (authorization_code)", () => {
  it("exchanges a code once for an access and a refresh token bound to the grant", async () => {
    const flow = await authorizedCode();
    const response = await exchangeCode(flow);

    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.json).toEqual({
      access_token: expect.stringMatching(/^cc_at_[0-9A-Za-z]{43}$/),
      token_type: "Bearer",
      expires_in: 3600,
      refresh_token: expect.stringMatching(/^cc_rt_[0-9A-Za-z]{43}$/),
      scope: "read write",
    });
    expect(await authenticateOAuthAccessToken(db(), response.json.access_token)).toEqual({
      organizationId: flow.organization.id,
      credential: { kind: "oauth", id: expect.stringMatching(/^ogr_/) },
      access: "write",
      role: "owner",
      name: expect.any(String),
      userId: flow.owner.userId,
      apiVersion: "2026-11-26",
    });
    // Only hashes are stored.
    const rows = await db().oAuthToken.findMany({
      where: { grant: { organizationId: flow.organization.id } },
    });
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row.hash).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(row)).not.toContain(response.json.access_token);
      expect(JSON.stringify(row)).not.toContain(response.json.refresh_token);
    }
    const refreshRow = rows.find((row) => row.kind === "REFRESH");
    expect((refreshRow?.expiresAt.getTime() ?? 0) - Date.now()).toBeGreaterThan(29 * 24 * 3600_000);
  });

  it("a read-only grant gives read access", async () => {
    const flow = await authorizedCode({ scope: "read" });
    const response = await exchangeCode(flow);
    expect(response.json.scope).toBe("read");
    expect((await authenticateOAuthAccessToken(db(), response.json.access_token))?.access).toBe("read");
  });

  type Case = [
    string,
    (flow: Awaited<ReturnType<typeof authorizedCode>>) => Promise<Record<string, string | undefined>>,
    number,
    string,
  ];
  it.each<Case>([
    ["a wrong code_verifier", async () => ({ code_verifier: pkcePair().verifier }), 400, "invalid_grant"],
    ["no code_verifier (PKCE missing)", async () => ({ code_verifier: undefined }), 400, "invalid_request"],
    [
      "a foreign redirect_uri",
      async () => ({ redirect_uri: "https://evil.example/callback" }),
      400,
      "invalid_grant",
    ],
    ["another resource", async () => ({ resource: "https://other.example/mcp" }), 400, "invalid_target"],
    ["an unknown code", async () => ({ code: `cc_ac_${"x".repeat(43)}` }), 400, "invalid_grant"],
    ["a code in another shape", async () => ({ code: "not-a-code" }), 400, "invalid_grant"],
    [
      "another client's id",
      async () => ({ client_id: (await registerTestClient()).client_id }),
      400,
      "invalid_grant",
    ],
    ["an unknown client", async () => ({ client_id: "ocl_unknown" }), 401, "invalid_client"],
    ["no client_id", async () => ({ client_id: undefined }), 401, "invalid_client"],
    ["an unsupported grant type", async () => ({ grant_type: "password" }), 400, "unsupported_grant_type"],
    [
      "an expired code",
      async (flow) => {
        await db().oAuthGrant.updateMany({
          where: { organizationId: flow.organization.id },
          data: { codeExpiresAt: new Date(Date.now() - 1000) },
        });
        return {};
      },
      400,
      "invalid_grant",
    ],
  ])("%s is refused with no token issued", async (_case, change, status, error) => {
    const flow = await authorizedCode();
    const overrides = await change(flow);
    const before = await tokenCount();

    const response = await exchangeCode(flow, overrides);

    expect(response.status).toBe(status);
    expect(response.json).toEqual({ error, error_description: expect.any(String) });
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await tokenCount()).toBe(before);
  });

  it("a reused code is refused and revokes the tokens the first exchange got", async () => {
    const flow = await authorizedCode();
    const first = await exchangeCode(flow);
    expect(await authenticateOAuthAccessToken(db(), first.json.access_token)).not.toBeNull();

    const second = await exchangeCode(flow);

    expect(second.status).toBe(400);
    expect(second.json.error).toBe("invalid_grant");
    expect(await authenticateOAuthAccessToken(db(), first.json.access_token)).toBeNull();
    expect((await refresh(flow.clientId, first.json.refresh_token)).json.error).toBe("invalid_grant");
  });

  it("two concurrent exchanges of one code: one wins, and the replay revokes the grant", async () => {
    const flow = await authorizedCode();
    const results = await Promise.all([exchangeCode(flow), exchangeCode(flow)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    const grant = await db().oAuthGrant.findFirstOrThrow({ where: { organizationId: flow.organization.id } });
    expect(grant.revokedAt).not.toBeNull();
  });

  it("accepts a JSON body too", async () => {
    const flow = await authorizedCode();
    const { callRoute } = await import("@/scripts/test-support/call-route");
    const response = await callRoute(token, "/oauth/token", {
      body: {
        grant_type: "authorization_code",
        code: flow.code,
        redirect_uri: redirectUri,
        code_verifier: flow.pkce.verifier,
        client_id: flow.clientId,
      },
    });
    expect(response.status).toBe(200);
  });
});

describe("POST /oauth/token (refresh_token)", () => {
  async function tokens(scope?: string) {
    const flow = await authorizedCode({ scope });
    const response = await exchangeCode(flow);
    return { flow, ...(response.json as { access_token: string; refresh_token: string }) };
  }

  it("rotates: a new refresh token every time, and the new access token works", async () => {
    const { flow, refresh_token } = await tokens();
    const response = await refresh(flow.clientId, refresh_token);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.json.refresh_token).toMatch(/^cc_rt_/);
    expect(response.json.refresh_token).not.toBe(refresh_token);
    expect(await authenticateOAuthAccessToken(db(), response.json.access_token)).toMatchObject({
      organizationId: flow.organization.id,
    });
    const again = await refresh(flow.clientId, response.json.refresh_token);
    expect(again.status).toBe(200);
  });

  it("an old refresh token replayed after the retry window revokes the whole family", async () => {
    const { flow, refresh_token } = await tokens();
    const rotated = await refresh(flow.clientId, refresh_token);
    await db().oAuthToken.updateMany({
      where: { rotatedAt: { not: null }, grant: { organizationId: flow.organization.id } },
      data: { rotatedAt: new Date(Date.now() - 60_000) },
    });

    const reuse = await refresh(flow.clientId, refresh_token);

    expect(reuse.status).toBe(400);
    expect(reuse.json.error).toBe("invalid_grant");
    expect(await authenticateOAuthAccessToken(db(), rotated.json.access_token)).toBeNull();
    expect((await refresh(flow.clientId, rotated.json.refresh_token)).json.error).toBe("invalid_grant");
  });

  it("an honest retry within seconds gets the identical answer, not a revocation", async () => {
    const { flow, refresh_token } = await tokens();
    const first = await refresh(flow.clientId, refresh_token);
    const retry = await refresh(flow.clientId, refresh_token);
    expect(retry.status).toBe(200);
    expect(retry.json).toEqual(first.json);
    expect(await authenticateOAuthAccessToken(db(), first.json.access_token)).not.toBeNull();
  });

  it("two concurrent refreshes with one token both succeed with the same tokens; one rotation happens", async () => {
    const { flow, refresh_token } = await tokens();
    const results = await Promise.all([1, 2, 3].map(() => refresh(flow.clientId, refresh_token)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(new Set(results.map((r) => r.json.refresh_token)).size).toBe(1);
    const refreshTokens = await db().oAuthToken.count({
      where: { kind: "REFRESH", grant: { organizationId: flow.organization.id } },
    });
    expect(refreshTokens).toBe(2);
  });

  type Case = [
    string,
    (t: Awaited<ReturnType<typeof tokens>>) => Promise<[string, Record<string, string | undefined>]>,
    string,
  ];
  it.each<Case>([
    [
      "another client's refresh token",
      async () => [(await registerTestClient()).client_id, {}],
      "invalid_grant",
    ],
    [
      "an access token as refresh token",
      async (t) => [t.flow.clientId, { refresh_token: t.access_token }],
      "invalid_grant",
    ],
    [
      "another resource",
      async (t) => [t.flow.clientId, { resource: "https://other.example/mcp" }],
      "invalid_target",
    ],
    ["an unknown scope", async (t) => [t.flow.clientId, { scope: "admin" }], "invalid_scope"],
    [
      "an expired refresh token",
      async (t) => {
        await db().oAuthToken.updateMany({
          where: { kind: "REFRESH", grant: { organizationId: t.flow.organization.id } },
          data: { expiresAt: new Date(Date.now() - 1000) },
        });
        return [t.flow.clientId, {}];
      },
      "invalid_grant",
    ],
  ])("%s is refused and changes nothing", async (_case, change, error) => {
    const t = await tokens();
    const [clientId, overrides] = await change(t);
    const before = await tokenCount();

    const response = await refresh(clientId, t.refresh_token, overrides);

    expect(response.status).toBe(400);
    expect(response.json.error).toBe(error);
    expect(await tokenCount()).toBe(before);
    const grant = await db().oAuthGrant.findFirstOrThrow({
      where: { organizationId: t.flow.organization.id },
    });
    expect(grant.revokedAt).toBeNull();
  });

  it("a refresh that asks for less gets an access token with only that; the grant keeps its scope", async () => {
    const t = await tokens("read write");
    const narrowed = await refresh(t.flow.clientId, t.refresh_token, { scope: "read" });
    expect(narrowed.status).toBe(200);
    expect(narrowed.json.scope).toBe("read");
    expect(await authenticateOAuthAccessToken(db(), narrowed.json.access_token)).toMatchObject({
      access: "read",
    });
    // The refresh token keeps the grant's scope (RFC 6749 section 6): a later refresh may ask for all of it.
    const full = await refresh(t.flow.clientId, narrowed.json.refresh_token);
    expect(full.json.scope).toBe("read write");
    expect(await authenticateOAuthAccessToken(db(), full.json.access_token)).toMatchObject({
      access: "write",
    });
  });

  it("ends a grant 90 days after its approval: no refresh after that, no token outlives it", async () => {
    const day = 24 * 60 * 60_000;
    const t = await tokens();
    const grant = { organizationId: t.flow.organization.id };
    // Half an hour before the end: a refresh works, but its tokens end with the grant.
    const end = Date.now() + 30 * 60_000;
    await db().oAuthGrant.updateMany({ where: grant, data: { createdAt: new Date(end - 90 * day) } });
    const refreshedAt = new Date();
    const late = await refresh(t.flow.clientId, t.refresh_token);
    expect(late.status).toBe(200);
    expect(late.json.expires_in).toBeLessThanOrEqual(30 * 60);
    const issued = await db().oAuthToken.findMany({ where: { grant, createdAt: { gte: refreshedAt } } });
    expect(issued).toHaveLength(2);
    for (const token of issued) expect(token.expiresAt.getTime()).toBeLessThanOrEqual(end);

    await db().oAuthGrant.updateMany({
      where: grant,
      data: { createdAt: new Date(Date.now() - 90 * day - 1000) },
    });
    const over = await refresh(t.flow.clientId, late.json.refresh_token);
    expect(over.status).toBe(400);
    expect(over.json.error).toBe("invalid_grant");
  });

  it("a read grant cannot widen to write on refresh", async () => {
    const t = await tokens("read");
    const response = await refresh(t.flow.clientId, t.refresh_token, { scope: "read write" });
    expect(response.json.error).toBe("invalid_scope");
  });
});

describe("confidential clients", () => {
  it("get a secret once and must authenticate with it", async () => {
    const client = await registerTestClient({ token_endpoint_auth_method: "client_secret_basic" });
    expect(client.client_secret).toMatch(/^cc_cs_/);
    const stored = await db().oAuthClient.findUniqueOrThrow({ where: { id: client.client_id } });
    expect(stored.secretHash).not.toContain(client.client_secret);

    const flow = await authorizedCode({ clientId: client.client_id });
    const basic = (secret: string) =>
      `Basic ${Buffer.from(`${client.client_id}:${secret}`).toString("base64")}`;
    const wrong = await postForm(
      token,
      "/oauth/token",
      { grant_type: "authorization_code", code: flow.code },
      { authorization: basic("cc_cs_wrong") },
    );
    expect(wrong.status).toBe(401);
    expect(wrong.json.error).toBe("invalid_client");
  });

  it("exchange with the right secret in Basic auth", async () => {
    const client = await registerTestClient({ token_endpoint_auth_method: "client_secret_basic" });
    const flow = await authorizedCode({ clientId: client.client_id });
    const response = await postForm(
      token,
      "/oauth/token",
      {
        grant_type: "authorization_code",
        code: flow.code,
        redirect_uri: redirectUri,
        code_verifier: flow.pkce.verifier,
      },
      {
        authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString("base64")}`,
      },
    );
    expect(response.status).toBe(200);
  });
});

describe("POST /oauth/token with a body that does not arrive whole", () => {
  const bytes = (text: string) => new TextEncoder().encode(text);
  it.each<[string, (controller: ReadableStreamDefaultController<Uint8Array>) => void]>([
    [
      "cut off before its end (the client went away)",
      (controller) => {
        controller.enqueue(bytes("grant_type=authorization_code&code="));
        controller.error(Object.assign(new Error("aborted"), { code: "ECONNRESET" }));
      },
    ],
    [
      "past 64 KiB without a Content-Length",
      (controller) => {
        controller.enqueue(bytes(`grant_type=${"x".repeat(70_000)}`));
        controller.close();
      },
    ],
  ])("%s: 400 invalid_request, never a 500", async (_name, start) => {
    const request = new NextRequest("http://localhost:3000/oauth/token", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new ReadableStream<Uint8Array>({ start }),
      duplex: "half",
    } as ConstructorParameters<typeof NextRequest>[1]);
    const response = await token(request, { params: Promise.resolve({}) });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: "invalid_request" });
  });
});

describe("POST /oauth/revoke", () => {
  it.each(["access_token", "refresh_token"] as const)(
    "revoking the %s ends the whole grant",
    async (kind) => {
      const flow = await authorizedCode();
      const issued = (await exchangeCode(flow)).json;

      const response = await postForm(revoke, "/oauth/revoke", {
        token: issued[kind],
        client_id: flow.clientId,
      });

      expect(response.status).toBe(200);
      expect(await authenticateOAuthAccessToken(db(), issued.access_token)).toBeNull();
      expect((await refresh(flow.clientId, issued.refresh_token)).json.error).toBe("invalid_grant");
    },
  );

  it("an unknown token, or another client's, answers 200 and changes nothing", async () => {
    const flow = await authorizedCode();
    const issued = (await exchangeCode(flow)).json;
    const other = await registerTestClient();
    for (const [tokenValue, clientId] of [
      [`cc_at_${"y".repeat(43)}`, flow.clientId],
      [issued.access_token, other.client_id],
    ]) {
      const response = await postForm(revoke, "/oauth/revoke", { token: tokenValue, client_id: clientId });
      expect(response.status).toBe(200);
    }
    expect(await authenticateOAuthAccessToken(db(), issued.access_token)).not.toBeNull();
  });
});

describe("authenticateOAuthAccessToken", () => {
  it.each<[string, (flow: Awaited<ReturnType<typeof authorizedCode>>) => Promise<void>]>([
    [
      "the grant is revoked",
      async (flow) => {
        await db().oAuthGrant.updateMany({
          where: { organizationId: flow.organization.id },
          data: { revokedAt: new Date() },
        });
      },
    ],
    [
      "the token expired",
      async (flow) => {
        await db().oAuthToken.updateMany({
          where: { grant: { organizationId: flow.organization.id } },
          data: { expiresAt: new Date(Date.now() - 1) },
        });
      },
    ],
    [
      "the user left the organization",
      async (flow) => {
        await db().membership.delete({ where: { id: flow.owner.id } });
      },
    ],
    [
      "the grant is for another resource",
      async (flow) => {
        await db().oAuthGrant.updateMany({
          where: { organizationId: flow.organization.id },
          data: { resource: `${mcpResource()}-other` },
        });
      },
    ],
  ])("refuses a token when %s", async (_case, change) => {
    const flow = await authorizedCode();
    const issued = (await exchangeCode(flow)).json;
    expect(await authenticateOAuthAccessToken(db(), issued.access_token)).not.toBeNull();
    await change(flow);
    expect(await authenticateOAuthAccessToken(db(), issued.access_token)).toBeNull();
  });

  it("refuses refresh tokens, codes and malformed values", async () => {
    const flow = await authorizedCode();
    const issued = (await exchangeCode(flow)).json;
    for (const value of [issued.refresh_token, flow.code, "cc_at_short", ""]) {
      expect(await authenticateOAuthAccessToken(db(), value)).toBeNull();
    }
  });
});

describe("authenticateMerchant with an OAuth access token (C1)", () => {
  it("is a caller on /mcp and refused on REST", async () => {
    const flow = await authorizedCode({ scope: "read" });
    const issued = (await exchangeCode(flow)).json;
    const header = `Bearer ${issued.access_token}`;
    expect(await authenticateMerchant(db(), header, { clientAddress: "c1-mcp", audience: "mcp" })).toEqual({
      organizationId: flow.organization.id,
      credential: { kind: "oauth", id: expect.stringMatching(/^ogr_/) },
      access: "read",
      role: "owner",
      name: expect.any(String),
      userId: flow.owner.userId,
      clientAddress: "c1-mcp",
      apiVersion: "2026-11-26",
    });
    await expect(
      authenticateMerchant(db(), header, { clientAddress: "c1-rest", audience: "rest" }),
    ).rejects.toMatchObject({ status: 401 });
    await db().oAuthGrant.updateMany({
      where: { organizationId: flow.organization.id },
      data: { revokedAt: new Date() },
    });
    await expect(
      authenticateMerchant(db(), header, { clientAddress: "c1-mcp", audience: "mcp" }),
    ).rejects.toMatchObject({ status: 401, code: "invalid_token" });
  });
});
