// A merchant's integration written against the client generated from the served OpenAPI document
// (openapi-typescript writes ./.generated/api.d.ts; openapi-fetch calls the API with its types).
// app/api/openapi.json/generated-client.int.test.ts generates, type-checks and runs it.
import createClient from "openapi-fetch";
import type { paths } from "./.generated/api";

export async function moneyPath(baseUrl: string, apiKey: string, orderId: string) {
  const merchant = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${apiKey}` } });
  const buyer = createClient<paths>({ baseUrl });

  const created = await merchant.POST("/api/checkout-sessions", {
    params: { header: { "Idempotency-Key": `order-${orderId}-attempt-1` } },
    body: {
      amount: "49.00",
      currency: "USD",
      merchantOrderId: orderId,
      successUrl: "https://shop.example/thanks?session={CHECKOUT_SESSION_ID}",
    },
  });
  if (!created.data) throw new Error(`create session: ${JSON.stringify(created.error)}`);

  const started = await buyer.POST("/api/public/payments", {
    body: { checkoutSessionId: created.data.id, network: "devnet", token: "USDC" },
  });
  if (!started.data) throw new Error(`start payment: ${JSON.stringify(started.error)}`);

  const status = await buyer.GET("/api/public/payments/{id}", { params: { path: { id: started.data.id } } });
  const session = await merchant.GET("/api/checkout-sessions/{id}", {
    params: { path: { id: created.data.id } },
  });
  // An error answer comes back typed as the error envelope.
  const unknown = await merchant.GET("/api/checkout-sessions/{id}", {
    params: { path: { id: "ycs_doesnotexist0000000000000" } },
  });
  const unknownVersion = await merchant.GET("/api/checkout-sessions/{id}", {
    params: { path: { id: created.data.id }, header: { "X-Service-Version": "2001-01-01" as "2026-11-22" } },
  });

  return {
    session: created.data,
    payment: started.data,
    status: status.data,
    sessionAfter: session.data,
    versionUsed: session.response.headers.get("X-Service-Version"),
    notFound: { status: unknown.response.status, code: unknown.error?.error.code },
    badVersion: { status: unknownVersion.response.status, param: unknownVersion.error?.error.param },
  };
}
