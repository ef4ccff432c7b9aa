import path from "node:path";
import { describe, expect, it } from "vitest";
import { allowedMethods, readRouteMethods } from "./route-methods";
import { appRoutes } from "./test-support/app-routes";

// The server names the allowed methods of a 405 from the route files' source (scripts/serve.ts):
// what it reads must be what the modules export, and a path must find the route Next.js picks.

const routes = readRouteMethods(path.resolve(import.meta.dirname, "../app"));

describe("route methods read from source", () => {
  it("match what every API route module exports", async () => {
    const templateOf = (template: string) => template.replace(/\[(\w+)\]/g, "{$1}");
    const fromSource = Object.fromEntries(
      routes
        .filter((route) => route.template.startsWith("/api/"))
        .map((route) => [
          templateOf(route.template),
          route.methods.filter((method) => method !== "OPTIONS" && method !== "HEAD"),
        ]),
    );
    const fromModules = Object.fromEntries(
      (await appRoutes()).map((route) => [route.template, Object.keys(route.handlers).sort()]),
    );
    for (const methods of Object.values(fromSource)) methods.sort();
    expect(fromSource).toEqual(fromModules);
  }, 120_000);

  it.each([
    ["/api/checkout-sessions", "OPTIONS, POST"],
    ["/api/checkout-sessions/cs_1", "GET, HEAD, OPTIONS"],
    ["/api/x402/paylinks/pl_1", "GET, HEAD, OPTIONS"],
    ["/api/private/paylinks/create", "OPTIONS, POST"],
    ["/api/private/organization/webhook-endpoints/we_1", "DELETE, GET, HEAD, OPTIONS, PATCH"],
    ["/oauth/token", "OPTIONS, POST"],
    ["/api/no/such/thing", "DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT"],
    ["/pay/pl_1", undefined],
  ])("%s allows %s", (pathname, allow) => {
    expect(allowedMethods(routes, pathname)).toBe(allow);
  });
});
