import type { Page } from "@playwright/test";
import { appSql, expect, openMailboxLink, test } from "./fixtures";

/** On the hosted page: the buyer pays in devnet USDC with the test wallet until it is confirmed. */
async function payWithTestWallet(page: Page) {
  await page.getByRole("button", { name: "Pay with test wallet" }).click();
  await expect(page.getByText("Payment confirmed").first()).toBeVisible({ timeout: 60_000 });
}

test("a recurring paylink bought on the devnet, the subscription in the dashboard, the renewal paid from its emailed link", async ({
  dashboard: page,
  request,
  merchant,
  browser,
}) => {
  test.setTimeout(300_000);
  const auth = { authorization: `Bearer ${merchant.apiKey}` };
  const paylink = (
    await (
      await request.post("/api/private/paylinks/create", {
        headers: auth,
        data: { name: "Coffee club", amount: "9.00", currency: "USD", recurring: { interval: "month" } },
      })
    ).json()
  ).data;
  const customerEmail = `member-${Date.now()}@example.com`;
  const session = await (
    await request.post("/api/checkout-sessions", {
      headers: { ...auth, "idempotency-key": `subs-e2e-${Date.now()}` },
      data: { paylinkId: paylink.id, customerEmail },
    })
  ).json();
  expect(session.recurring).toEqual({ interval: "month", intervalCount: 1 });

  const buyer = await (await browser.newContext()).newPage();
  await buyer.goto(session.url);
  await expect(buyer.getByTestId("recurring")).toContainText("then 9.00 USD per month");
  await buyer.getByRole("button", { name: /USDC\s*on Local devnet/ }).click();
  await payWithTestWallet(buyer);

  await expect
    .poll(
      async () =>
        (await (await request.get("/api/private/subscriptions", { headers: auth })).json()).data.total,
      {
        timeout: 30_000,
      },
    )
    .toBe(1);
  const [subscription] = (await (await request.get("/api/private/subscriptions", { headers: auth })).json())
    .data.data;
  expect(subscription).toMatchObject({ status: "ACTIVE", customer: { email: customerEmail } });

  await page.getByRole("link", { name: "Subscriptions" }).click();
  await page.getByRole("link", { name: subscription.id }).click();
  await expect(page.getByRole("heading", { name: subscription.id })).toBeVisible();
  await expect(page.getByText("First payment")).toBeVisible();

  // A month cannot pass in a test: bring the period's end within the renewal window; the
  // scheduler (every 15 s) issues the renewal and emails its link.
  await appSql(
    `UPDATE "Subscription" SET "currentPeriodEnd" = now() + interval '1 hour', "nextActionAt" = now() WHERE "id" = $1`,
    [subscription.id],
  );
  await expect
    .poll(
      async () =>
        (
          await appSql(`SELECT 1 FROM "DevEmail" WHERE "to" = $1 AND "text" LIKE '%/pay/ycs_%'`, [
            customerEmail,
          ])
        ).length,
      { timeout: 60_000 },
    )
    .toBe(1);
  await openMailboxLink(buyer, customerEmail, "/pay/ycs_");
  await expect(buyer).toHaveURL(/\/pay\/ycs_/);
  await expect(buyer.getByTestId("recurring")).toContainText("Subscription renewal for");
  await payWithTestWallet(buyer);

  await expect
    .poll(
      async () =>
        (await (await request.get(`/api/private/subscriptions/${subscription.id}`, { headers: auth })).json())
          .data,
      { timeout: 30_000 },
    )
    .toMatchObject({
      status: "ACTIVE",
      invoices: [{ periodIndex: 1, status: "CONFIRMED" }, { periodIndex: 0 }],
    });
  await page.reload();
  await expect(page.getByText("Renewal 1")).toBeVisible();
  await page.goto("/dashboard");
  await expect(page.getByRole("link", { name: /Active/ }).first()).toBeVisible();
});
