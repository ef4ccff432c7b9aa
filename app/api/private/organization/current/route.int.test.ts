import { describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/api-keys/create-api-key";
import { revokeApiKey } from "@/lib/api-keys/revoke-api-key";
import { db } from "@/lib/db/client";
import { callRoute } from "@/scripts/test-support/call-route";
import { createTestOrganization } from "@/scripts/test-support/fixtures";
import { GET } from "./route";

const path = "/api/private/organization/current";

describe("API key authentication (GET /api/private/organization/current)", () => {
  it("accepts a live key and answers for its organization only", async () => {
    const first = await createTestOrganization("First");
    const second = await createTestOrganization("Second");
    const response = await callRoute(GET, path, { headers: first.auth });
    expect(response.status).toBe(200);
    expect(response.json).toEqual({
      success: true,
      data: {
        id: first.organization.id,
        object: "organization",
        name: "First",
        webhookUrl: null,
        settlementWallets: [],
        pendingSettlementWallets: [],
        apiVersion: "2026-11-26",
        subscriptionGraceDays: 3,
        refundAgentDailyCapUsd: "100.00",
        autoRefundOverpayments: false,
        monthlyReportEmail: false,
        monthlyReportTo: null,
        branding: { displayName: null, color: null, logoUrl: null },
        merchantDetails: { legalName: null, address: null, taxId: null, supportEmail: null },
        receiptEmails: true,
        createdAt: first.organization.createdAt.toISOString(),
      },
    });
    const other = await callRoute(GET, path, { headers: second.auth });
    expect(other.json.data.id).toBe(second.organization.id);
  });

  it("records when a key was last used", async () => {
    const { apiKey, organization, auth } = await createTestOrganization();
    await callRoute(GET, path, { headers: auth });
    const key = await db().apiKey.findFirstOrThrow({ where: { organizationId: organization.id } });
    expect(key.lastUsedAt).not.toBeNull();
    expect(apiKey.startsWith(key.prefix)).toBe(true);
  });

  const revokedKey = async () => {
    const { organization } = await createTestOrganization();
    const { apiKey, secret } = await createApiKey(db(), { organizationId: organization.id, name: "old" });
    await revokeApiKey(db(), { organizationId: organization.id, apiKeyId: apiKey.id });
    return `Bearer ${secret}`;
  };

  it.each<[string, () => Promise<string | undefined>, string]>([
    ["no Authorization header", async () => undefined, "missing_api_key"],
    ["an empty header", async () => "", "missing_api_key"],
    ["a Basic scheme", async () => "Basic dXNlcjpwYXNz", "invalid_authorization_header"],
    ["Bearer without a key", async () => "Bearer ", "invalid_authorization_header"],
    ["a key with spaces", async () => "Bearer sk_live_a b", "invalid_authorization_header"],
    ["lower-case bearer", async () => "bearer sk_live_x", "invalid_authorization_header"],
    ["an unknown key of the right shape", async () => `Bearer sk_live_${"A".repeat(40)}`, "invalid_api_key"],
    ["a key of the wrong shape", async () => "Bearer sk_live_short", "invalid_api_key"],
    ["a revoked key", revokedKey, "invalid_api_key"],
  ])("rejects %s with 401 and the error envelope", async (_case, header, code) => {
    const value = await header();
    const response = await callRoute(GET, path, {
      headers: value === undefined ? {} : { authorization: value },
    });
    expect(response.status).toBe(401);
    expect(response.json).toEqual({
      success: false,
      error: { type: "authentication_error", code, message: expect.any(String) },
      requestId: expect.stringMatching(/^req_/),
    });
    expect(response.headers.get("x-request-id")).toBe(response.json.requestId);
  });

  it("gives unknown and revoked keys the same answer", async () => {
    const revoked = await callRoute(GET, path, { headers: { authorization: await revokedKey() } });
    const unknown = await callRoute(GET, path, {
      headers: { authorization: `Bearer sk_live_${"B".repeat(40)}` },
    });
    expect({ ...revoked.json, requestId: "" }).toEqual({ ...unknown.json, requestId: "" });
  });

  it("keeps a caller's sane request id and replaces an unsafe one", async () => {
    const kept = await callRoute(GET, path, { headers: { "x-request-id": "trace-1234-abcd" } });
    expect(kept.headers.get("x-request-id")).toBe("trace-1234-abcd");
    const replaced = await callRoute(GET, path, { headers: { "x-request-id": "<script>" } });
    expect(replaced.headers.get("x-request-id")).toMatch(/^req_/);
  });

  it("never writes a key to the logs, valid, unknown or revoked", async () => {
    const { apiKey } = await createTestOrganization();
    const revoked = await revokedKey();
    const written: string[] = [];
    const original = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      written.push(String(chunk));
      return original(chunk, ...(rest as []));
    }) as typeof process.stdout.write;
    try {
      await callRoute(GET, path, { headers: { authorization: `Bearer ${apiKey}` } });
      await callRoute(GET, path, { headers: { authorization: revoked } });
      await callRoute(GET, path, { headers: { authorization: "Bearer sk_live_unknownunknownunknown" } });
    } finally {
      process.stdout.write = original;
    }
    const output = written.join("");
    expect(output).toContain('"path":"/api/private/organization/current"');
    expect(output).not.toContain(apiKey);
    expect(output).not.toContain(revoked.slice("Bearer ".length));
    expect(output).not.toContain("sk_live_unknownunknownunknown");
  });
});
