import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { callRoute } from "@/scripts/test-support/call-route";
import { createTestOrganization } from "@/scripts/test-support/fixtures";
import { GET as getPublicSession } from "../../../public/checkout-sessions/[id]/route";
import { GET, PUT } from "./route";

const path = "/api/private/organization/current";

describe("API versions (X-Service-Version)", () => {
  it("answers in the organization's pinned version and says so", async () => {
    const { auth } = await createTestOrganization();
    const response = await callRoute(GET, path, { headers: auth });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-service-version")).toBe("2026-11-26");
    expect(response.json.data.apiVersion).toBe("2026-11-26");
  });

  it("honours a known version named by the request", async () => {
    const { auth } = await createTestOrganization();
    const response = await callRoute(GET, path, { headers: { ...auth, "X-Service-Version": "2026-11-22" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-service-version")).toBe("2026-11-22");
  });

  it.each([["2020-01-01"], ["latest"], [""], ["2026-11-22,2020-01-01"]])(
    "refuses unknown version %j with 400 invalid_api_version, before anything changes",
    async (version) => {
      const { auth, organization } = await createTestOrganization("Before");
      const headers = { ...auth, "X-Service-Version": version };
      const update = await callRoute(PUT, path, { method: "PUT", headers, body: { name: "After" } });
      expect(update.status).toBe(400);
      expect(update.json).toMatchObject({
        success: false,
        error: { type: "invalid_request_error", code: "invalid_api_version", param: "X-Service-Version" },
      });
      expect(update.headers.get("x-service-version")).toBe("2026-11-26");
      const stored = await db().organization.findUniqueOrThrow({ where: { id: organization.id } });
      expect(stored.name).toBe("Before");
      // Public routes too: the version applies to every API answer.
      const publicRead = await callRoute(getPublicSession, "/api/public/checkout-sessions/ycs_x", {
        headers: { "X-Service-Version": version },
        params: { id: "ycs_x" },
      });
      expect(publicRead.status).toBe(400);
      expect(publicRead.json.error.code).toBe("invalid_api_version");
    },
  );

  it("lets the organization move its pin only to a version that exists", async () => {
    const { auth, organization } = await createTestOrganization();
    const bad = await callRoute(PUT, path, {
      method: "PUT",
      headers: auth,
      body: { apiVersion: "2019-01-01" },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatchObject({ code: "parameter_invalid", param: "apiVersion" });
    const good = await callRoute(PUT, path, {
      method: "PUT",
      headers: auth,
      body: { apiVersion: "2026-11-22" },
    });
    expect(good.status).toBe(200);
    const stored = await db().organization.findUniqueOrThrow({ where: { id: organization.id } });
    expect(stored.apiVersion).toBe("2026-11-22");
  });
});
