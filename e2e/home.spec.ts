import { admin, expect, test } from "./fixtures";

test("the home page explains the product and shows a ready-to-run request", async ({ page, baseURL }) => {
  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  expect(response?.headers()["x-request-id"]).toMatch(/^req_/);
  await expect(page).toHaveTitle("Crypto Checkout");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(
    "Accept crypto payments with one API call.",
  );
  await expect(page.locator("pre")).toContainText(`curl ${baseURL}/api/checkout-sessions`);
  await page.getByRole("link", { name: "/api/health" }).click();
  await expect(page.locator("body")).toContainText('"status":"ok"');
});

test("a key created by the admin command authenticates over HTTP, and revoking it locks it out", async ({
  request,
}) => {
  // Through the command itself, not the merchant fixture (which skips the process).
  const merchant = await admin(
    "org:create",
    "--name",
    "E2E Store",
    "--email",
    `admin-${Date.now()}@example.com`,
  );
  const headers = { authorization: `Bearer ${merchant.apiKey}` };
  const ok = await request.get("/api/private/organization/current", { headers });
  expect(ok.status()).toBe(200);
  expect((await ok.json()).data).toMatchObject({ id: merchant.organizationId, name: "E2E Store" });

  const status = await (await request.get("/api/private/organization/api-key", { headers })).json();
  await admin("apikey:revoke", "--org", merchant.organizationId, "--key", status.data.keys[0].id);

  const revoked = await request.get("/api/private/organization/current", { headers });
  expect(revoked.status()).toBe(401);
  expect((await revoked.json()).error.code).toBe("invalid_api_key");
});
