import { readdir } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { callRoute } from "@/scripts/test-support/call-route";
import { GET } from "./route";

const root = path.resolve(import.meta.dirname, "../../..");

/** Every API route of the app, as "METHOD /path/{param}", read from the file system. */
async function routesOnDisk(): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.name === "route.ts") {
        const source = await import(full);
        const route = path.relative(path.join(root, "app"), path.dirname(full)).replace(/\[(\w+)\]/g, "{$1}");
        for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"])
          if (source[method]) found.push(`${method} /${route}`);
      }
    }
  };
  await walk(path.join(root, "app/api"));
  return found;
}

describe("GET /api/openapi.json", () => {
  it("is an OpenAPI 3.1 document whose refs all resolve", async () => {
    const response = await callRoute(GET, "/api/openapi.json");
    expect(response.status).toBe(200);
    const document = response.json;
    expect(document.openapi).toBe("3.1.0");
    const refs = [...response.text.matchAll(/"\$ref":"([^"]+)"/g)].map((match) => match[1]);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      expect(ref).toMatch(/^#\/components\/(schemas|parameters|headers)\/\w+$/);
      const [, , kind, name] = ref.split("/");
      const target = document.components[kind][name];
      expect(target).toBeDefined();
      // A definition that is only a pointer to itself (or another pointer) defines nothing.
      expect(target.$ref).toBeUndefined();
    }
  });

  it("documents every API route of the app (framework routes aside)", async () => {
    const document = (await callRoute(GET, "/api/openapi.json")).json;
    const documented = Object.entries(document.paths).flatMap(([route, methods]) =>
      Object.keys(methods as object).map((method) => `${method.toUpperCase()} ${route}`),
    );
    // The document itself, and the Inngest engine's endpoint (called by an Inngest server).
    const undocumentedByDesign = [
      "GET /api/openapi.json",
      "GET /api/inngest",
      "POST /api/inngest",
      "PUT /api/inngest",
      // next-auth's own sign-in, callback and sign-out endpoints, used by the dashboard pages.
      "GET /api/auth/[...nextauth]",
      "POST /api/auth/[...nextauth]",
      // The target of the agent signup confirmation page's form: a browser posts it and follows
      // its 303; no API client calls it.
      "POST /api/auth/agent/register/confirm",
    ];
    const missing = (await routesOnDisk()).filter(
      (route) => !documented.includes(route) && !undocumentedByDesign.includes(route),
    );
    expect(missing).toEqual([]);
  });

  it("describes create checkout session from the same schema the route validates with", async () => {
    const document = (await callRoute(GET, "/api/openapi.json")).json;
    const create = document.paths["/api/checkout-sessions"].post;
    expect(create.security).toEqual([{ apiKey: [] }]);
    expect(create.parameters).toContainEqual(
      expect.objectContaining({ name: "Idempotency-Key", in: "header" }),
    );
    const standalone = document.components.schemas.CreateStandaloneCheckoutSession;
    expect(standalone.required).toEqual(["amount", "currency"]);
    expect(standalone.additionalProperties).toBe(false);
    expect(standalone.properties.expiresInMinutes).toMatchObject({ minimum: 5, maximum: 1440 });
    expect(standalone.properties.currency.enum).toEqual(["USD", "EUR", "GBP"]);
  });
});
