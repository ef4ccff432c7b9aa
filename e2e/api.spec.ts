import { expect, test } from "./fixtures";

test("a merchant creates a checkout session over HTTP and retrieves it; the buyer's view hides merchant data", async ({
  request,
  merchant,
}) => {
  const headers = {
    authorization: `Bearer ${merchant.apiKey}`,
    "idempotency-key": `e2e-${Date.now()}-order-1`,
  };
  const created = await request.post("/api/checkout-sessions", {
    headers,
    data: { amount: "19.99", currency: "EUR", customerEmail: "buyer@example.com", merchantOrderId: "A-1" },
  });
  expect(created.status()).toBe(200);
  const session = await created.json();
  expect(session).toMatchObject({
    object: "checkout_session",
    status: "OPEN",
    amount: "19.99",
    currency: "EUR",
  });
  expect(session.url).toMatch(new RegExp(`/pay/${session.id}$`));

  const replay = await request.post("/api/checkout-sessions", {
    headers,
    data: { amount: "19.99", currency: "EUR", customerEmail: "buyer@example.com", merchantOrderId: "A-1" },
  });
  expect(await replay.text()).toBe(JSON.stringify(session));

  const retrieved = await (await request.get(`/api/checkout-sessions/${session.id}`, { headers })).json();
  expect(retrieved).toMatchObject({ id: session.id, customerEmail: "buyer@example.com", payment: null });

  const publicView = await request.get(`/api/public/checkout-sessions/${session.id}`);
  expect(publicView.status()).toBe(200);
  expect(await publicView.text()).not.toContain("buyer@example.com");
});

test("the API reference renders offline from the OpenAPI document", async ({ page }) => {
  const document = await (await page.request.get("/api/openapi.json")).json();
  expect(document.openapi).toBe("3.1.0");
  await page.goto("/docs/api");
  await expect(page.getByRole("heading", { name: "Crypto Checkout API" })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText("Create a checkout session").first()).toBeVisible();
  await page.getByText("Paylinks", { exact: true }).first().click();
  await expect(page.getByText("Create a paylink").first()).toBeVisible();
});
