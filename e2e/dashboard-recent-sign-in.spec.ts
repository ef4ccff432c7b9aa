import { appSql, expect, openMailboxLink, paidTestInvoice, test } from "./fixtures";

// What hands out power over money in the dashboard (a refund, a new API key, an invitation, a
// member's removal) asks
// for a sign-in within the last 10 minutes; an older session is refused with a link that signs in
// again by email and comes back to the page.

const refusal = "this needs a sign-in within the last 10 minutes";

test("refund, API key creation, invitation and removing a member need a recent sign-in; signing in again comes back and works", async ({
  dashboard: page,
  merchant,
  request,
}) => {
  test.setTimeout(180_000);
  const invoiceId = await paidTestInvoice(request, merchant);
  // A claim link the merchant's server asked for: it pays whoever types an address into it.
  const claimRefund = await request.post("/api/private/refunds", {
    headers: { authorization: `Bearer ${merchant.apiKey}`, "idempotency-key": `claim-${Date.now()}` },
    data: { invoiceId, amount: "1", destination: "claim" },
  });
  expect(claimRefund.status()).toBe(200);
  const { id: refundId, claimUrl } = (await claimRefund.json()).data;
  expect(claimUrl).toMatch(/\/refund\/[A-Za-z0-9_-]{43}$/);
  await appSql(
    `UPDATE "AuthSession" SET "createdAt" = now() - interval '20 minutes'
     WHERE "userId" = (SELECT "id" FROM "User" WHERE "email" = $1)`,
    [merchant.email],
  );
  const count = async (table: string) =>
    Number(
      (
        await appSql(`SELECT count(*)::int AS n FROM "${table}" WHERE "organizationId" = $1`, [
          merchant.organizationId,
        ])
      )[0].n,
    );
  // A co-owner, who hears of every settlement change: a stale session must not remove them.
  const coOwner = `co-owner-${Date.now()}@example.com`;
  await appSql(
    `WITH u AS (INSERT INTO "User" ("id", "email") VALUES ('usr_' || md5(random()::text), $1) RETURNING "id")
     INSERT INTO "Membership" ("id", "organizationId", "userId", "role") SELECT 'mem_' || md5(random()::text), $2, u."id", 'OWNER' FROM u`,
    [coOwner, merchant.organizationId],
  );
  const before = {
    keys: await count("ApiKey"),
    invitations: await count("Invitation"),
    refunds: await count("Refund"),
    members: await count("Membership"),
  };

  await page.goto("/dashboard/api-keys");
  await page.getByLabel("Name").fill("Stolen session's key");
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByRole("alert").filter({ hasText: refusal })).toBeVisible();

  await page.goto("/dashboard/settings");
  await page.getByLabel("Email", { exact: true }).fill(`accomplice-${Date.now()}@example.com`);
  await page.getByLabel("Role").selectOption("OWNER");
  await page.getByRole("button", { name: "Invite" }).click();
  await expect(page.getByRole("alert").filter({ hasText: refusal })).toBeVisible();
  const coOwnerRow = page.getByRole("listitem").filter({ hasText: coOwner });
  await coOwnerRow.getByRole("button", { name: "Remove" }).click();
  await coOwnerRow.getByRole("button", { name: "Yes, remove" }).click();
  await expect(coOwnerRow.getByRole("alert").filter({ hasText: refusal })).toBeVisible();

  // An old session neither reads an open claim link nor gets a new one by re-sending it.
  await page.goto(`/dashboard/refunds/${refundId}`);
  await expect(page.getByTestId("claim-url-hidden")).toContainText("Sign in again");
  await expect(page.getByTestId("claim-url")).toHaveCount(0);
  expect(await page.content()).not.toContain(claimUrl.split("/").pop());
  await page.getByRole("button", { name: "Re-send claim link" }).click();
  await page.getByRole("button", { name: "Yes, re-send" }).click();
  await expect(page.getByRole("alert").filter({ hasText: refusal })).toBeVisible();
  expect(await page.content()).not.toContain(claimUrl.split("/").pop());

  await page.goto(`/dashboard/invoices/${invoiceId}`);
  await page.getByLabel("Amount in USDC").fill("5");
  await page.getByRole("button", { name: "Refund", exact: true }).click();
  const refused = page.getByRole("alert").filter({ hasText: refusal });
  await expect(refused).toBeVisible();
  expect({
    keys: await count("ApiKey"),
    invitations: await count("Invitation"),
    refunds: await count("Refund"),
    members: await count("Membership"),
  }).toEqual(before);

  // The link signs in again by email and returns to the invoice, where the refund now goes through.
  await refused.getByRole("link", { name: "Sign in again" }).click();
  await expect(page).toHaveURL(/\/login\?reauth=1/);
  await page.getByLabel("Work email").fill(merchant.email);
  await page.getByRole("button", { name: "Email me a sign-in link" }).click();
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();
  await openMailboxLink(page, merchant.email);
  await expect(page).toHaveURL(new RegExp(`/dashboard/invoices/${invoiceId}$`));
  await page.getByLabel("Amount in USDC").fill("5");
  await page.getByRole("button", { name: "Refund", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: /Refund rfd_\w+ created/ })).toBeVisible();
  expect(await count("Refund")).toBe(before.refunds + 1);
});
