import { describe, expect, it } from "vitest";
import { appRoutes } from "@/scripts/test-support/app-routes";
import { callRoute } from "@/scripts/test-support/call-route";
import { GET } from "./route";

/** Every API route of the app, as "METHOD /path/{param}", read from the file system. */
async function routesOnDisk(): Promise<string[]> {
  return (await appRoutes()).flatMap(({ template, handlers }) =>
    Object.keys(handlers).map((method) => `${method} ${template}`),
  );
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
      // The JSON 404 of an unknown path under /api/: no operation.
      ...["DELETE", "GET", "PATCH", "POST", "PUT"].map((method) => `${method} /api/[...path]`),
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

  it("shows a Solana payment's fields: where to pay, its reference and the Solana Pay request", async () => {
    const document = (await callRoute(GET, "/api/openapi.json")).json;
    const { schemas } = document.components;
    for (const body of [schemas.CreateStandaloneCheckoutSession, schemas.CreatePaylinkCheckoutSession])
      expect(Object.keys(body.properties)).toEqual(expect.arrayContaining(["network", "token"]));
    const created =
      document.paths["/api/checkout-sessions"].post.responses["200"].content["application/json"];
    expect(JSON.stringify(created.schema)).toContain("#/components/schemas/CreatedCheckoutSession");
    expect(schemas.CreatedCheckoutSession.properties.paymentRequest.anyOf).toContainEqual({
      $ref: "#/components/schemas/PaymentRequest",
    });
    const request = schemas.PaymentRequest.properties;
    for (const field of ["depositAddress", "tokenAddress", "reference", "walletChain", "paymentUri"])
      expect(request[field], field).toBeDefined();
    expect(request.reference.description).toContain("base58");
    expect(request.paymentUri.description).toContain("Solana Pay");
    expect(request.walletChain.description).toContain("solana:");
    expect(document.paths["/api/public/payments/{id}/wallet-transaction"]?.post).toBeDefined();
  });
});
