import { describe, expect, it } from "vitest";
import { clientAddressHeader } from "@/lib/net/client-address";
import { appRoutes } from "@/scripts/test-support/app-routes";
import { callRoute } from "@/scripts/test-support/call-route";
import { createTestOrganization } from "@/scripts/test-support/fixtures";
import { documentedOperations } from "@/scripts/test-support/openapi-contract";

// The error paths of every operation in the document, derived from the document itself, so an
// operation added later is covered the day it is documented. callRoute checks each answer against
// the document (status listed, body valid); the success paths are the route tests' traffic.

const operations = documentedOperations();
const routes = await appRoutes();

async function call(
  { template, method, operation }: (typeof operations)[number],
  options: { headers?: Record<string, string>; body?: unknown } = {},
) {
  const handler = routes.find((route) => route.template === template)?.handlers[method as "GET"];
  if (!handler) throw new Error(`${method} ${template} is documented but no route serves it`);
  // Path parameters: the schema's example, or an id nothing has.
  const params: Record<string, string> = {};
  for (const parameter of operation.parameters ?? []) {
    if ("in" in parameter && parameter.in === "path") {
      params[parameter.name] = String(parameter.schema.example ?? "unknown_id");
    }
  }
  const path = template.replace(/\{(\w+)\}/g, (_match, name: string) => params[name]);
  // Each call from its own client address, so no per-client limit answers instead.
  const headers = { [clientAddressHeader]: `198.51.100.${++clients % 250}`, ...options.headers };
  return callRoute(handler, path, { method, params, body: options.body, headers });
}
let clients = 0;

const name = ({ method, template }: (typeof operations)[number]) => `${method} ${template}`;

describe("every documented operation's error paths match the document", () => {
  it.each(operations.map((entry) => [name(entry), entry] as const))(
    "%s: an unknown X-Service-Version is 400 invalid_api_version",
    async (_name, entry) => {
      const response = await call(entry, { headers: { "X-Service-Version": "1999-12-31" } });
      expect(response.status).toBe(400);
      expect(response.json.error).toMatchObject({ code: "invalid_api_version", param: "X-Service-Version" });
    },
  );

  const secured = operations.filter((entry) => entry.operation.security.length > 0);
  it.each(secured.map((entry) => [name(entry), entry] as const))(
    "%s: a missing or unknown credential is refused",
    async (_name, entry) => {
      // Where a dashboard session is the alternative, a request without a key is the session's
      // (it needs Next.js's request scope, which in-process calls lack): send an unknown key.
      const alternatives = entry.operation.security.flatMap((scheme) => Object.keys(scheme));
      const headers: Record<string, string> =
        alternatives.includes("apiKey") && alternatives.includes("session")
          ? { authorization: `Bearer sk_live_${"0".repeat(40)}` }
          : {};
      const response = await call(entry, { headers, body: entry.operation.requestBody ? {} : undefined });
      // 401, or 403 where a cookie-authenticated change must come from our own origin first.
      expect([401, 403]).toContain(response.status);
      expect(response.json.error.type).toMatch(/^(authentication|permission)_error$/);
    },
  );

  const withBody = operations.filter(
    (entry) =>
      entry.operation.requestBody &&
      entry.operation.security.every((scheme) => "apiKey" in scheme || Object.keys(scheme).length === 0),
  );
  it.each(withBody.map((entry) => [name(entry), entry] as const))(
    "%s: a body with an unknown field is 400 naming it (or 404 for an unknown id first)",
    async (_name, entry) => {
      const { auth } = await createTestOrganization();
      const response = await call(entry, {
        headers: entry.operation.security.length ? auth : {},
        body: { unexpectedField: true },
      });
      expect([400, 404]).toContain(response.status);
      if (response.status === 400) expect(response.json.error.param).toBeDefined();
    },
  );

  it.each(withBody.map((entry) => [name(entry), entry] as const))(
    "%s: a body that is not JSON is 415 (or 404 for an unknown id first)",
    async (_name, entry) => {
      const { auth } = await createTestOrganization();
      const response = await call(entry, {
        headers: { ...(entry.operation.security.length ? auth : {}), "content-type": "text/plain" },
        body: "amount=49",
      });
      expect([404, 415]).toContain(response.status);
    },
  );
});

// Success answers of operations that no route test of their own calls yet.
describe("success answers match the document", () => {
  const byId = (operationId: string) => {
    const entry = operations.find((candidate) => candidate.operation.operationId === operationId);
    if (!entry) throw new Error(`${operationId} is not documented`);
    return entry;
  };

  it("GET /api/health/live answers ok", async () => {
    const response = await call(byId("liveness"));
    expect(response.status).toBe(200);
    expect(response.json).toEqual({ status: "ok" });
  });

  it("GET /api/private/organization/api-key shows prefixes and dates, never a key", async () => {
    const { apiKey, auth } = await createTestOrganization();
    const response = await call(byId("retrieveApiKeyStatus"), { headers: auth });
    expect(response.status).toBe(200);
    expect(response.json.data).toMatchObject({ object: "api_key_status", hasActiveKey: true });
    expect(apiKey.startsWith(response.json.data.keys[0].prefix)).toBe(true);
    expect(response.text).not.toContain(apiKey);
  });
});
