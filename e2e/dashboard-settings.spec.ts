import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "@playwright/test";
import { appSql, expect, signIn, test } from "./fixtures";

const screenshotDir = path.resolve(import.meta.dirname, "../test-results/screenshots");
const widths = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };

/** Full-page screenshots of the page as it is now, at desktop and phone widths. */
async function screenshots(page: Page, name: string) {
  mkdirSync(screenshotDir, { recursive: true });
  // From the top, so the sticky sidebar sits where a visitor first sees it.
  await page.evaluate(() => window.scrollTo(0, 0));
  for (const [label, size] of Object.entries(widths)) {
    await page.setViewportSize(size);
    await page.screenshot({ path: path.join(screenshotDir, `${name}-${label}.png`), fullPage: true });
  }
  await page.setViewportSize(widths.desktop);
}

/** A second person in a browser of their own, signed in through the mailbox. */
async function signInElsewhere(browser: Browser, email: string) {
  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const page = await context.newPage();
  await signIn(page, email);
  return page;
}

test("paylinks: create one in the dashboard, share it, and its pay page shows the price", async ({
  dashboard: page,
  request,
}) => {
  await page.goto("/dashboard/paylinks");
  await expect(page.getByText("No paylinks yet")).toBeVisible();

  await page.getByLabel("Name").fill("Annual plan");
  await page.getByLabel("Description").fill("One year of everything");
  await page.getByLabel("Price").fill("12.50");
  await page.getByLabel("Currency").selectOption("EUR");
  await page.getByRole("button", { name: "Create paylink" }).click();
  await expect(page.getByRole("status")).toContainText("Created “Annual plan”");
  const row = page.getByRole("row", { name: /Annual plan/ });
  await expect(row).toContainText("12.50 EUR");
  await expect(row).toContainText("Enabled");
  await screenshots(page, "paylinks");

  await row.getByRole("link", { name: "Annual plan" }).click();
  await expect(page).toHaveURL(/\/dashboard\/paylinks\/[0-9a-f-]{36}$/);
  const id = page.url().split("/").at(-1) as string;
  const payUrl = `${test.info().project.use.baseURL}/pay/${id}`;
  await expect(page.getByRole("heading", { name: "Annual plan" })).toBeVisible();
  await expect(page.getByTestId("paylink-price")).toHaveText("12.50 EUR");
  await expect(page.getByTestId("paylink-url")).toHaveText(payUrl);
  await expect(page.getByRole("button", { name: "Copy paylink URL" })).toBeVisible();
  await expect(page.getByRole("img", { name: "QR code of the link to Annual plan" })).toBeVisible();
  await screenshots(page, "paylink-detail");

  const popup = page.waitForEvent("popup");
  await page.getByRole("link", { name: "Open" }).click();
  const payPage = await popup;
  await expect(payPage.getByTestId("price")).toHaveText("12.50 EUR");
  await payPage.close();

  // An edit changes the price buyers get; disabling asks first, then the link is gone for buyers.
  await page.getByLabel("Price").fill("15.00");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByTestId("paylink-price")).toHaveText("15.00 EUR");
  await page.getByRole("button", { name: "Disable paylink" }).click();
  await page.getByRole("button", { name: "Yes, disable" }).click();
  await expect(page.getByText("Disabled", { exact: true })).toBeVisible();
  expect((await request.get(payUrl, { maxRedirects: 0 })).status()).toBe(404);
  await page.getByRole("button", { name: "Enable paylink" }).click();
  await expect(page.getByText("Enabled", { exact: true })).toBeVisible();
});

test("API keys: create one in the dashboard, call the API with it, revoke it", async ({
  dashboard: page,
  merchant,
  request,
}) => {
  await page.goto("/dashboard/api-keys");
  await page.getByLabel("Name").fill("CI server");
  await page.getByRole("button", { name: "Create key" }).click();
  const secret = (await page.getByTestId("secret-value").textContent()) as string;
  expect(secret).toMatch(/^sk_live_[0-9A-Za-z]{40}$/);
  await expect(page.getByText(`-H "Authorization: Bearer ${secret}"`)).toBeVisible();
  await expect(
    page.getByText(`curl ${test.info().project.use.baseURL}/api/private/organization/current`).first(),
  ).toBeVisible();

  const call = () =>
    request.get("/api/private/organization/current", { headers: { authorization: `Bearer ${secret}` } });
  const ok = await call();
  expect(ok.status()).toBe(200);
  expect((await ok.json()).data.id).toBe(merchant.organizationId);

  const row = page.getByRole("row", { name: /CI server/ });
  await expect(row).toContainText("Active");
  await screenshots(page, "api-keys");
  await page.reload();
  // The key is never shown again; the list knows only its prefix.
  await expect(page.getByTestId("secret-value")).toHaveCount(0);
  await expect(row).toContainText(`${secret.slice(0, 12)}…`);
  await row.getByRole("button", { name: "Revoke" }).click();
  await row.getByRole("button", { name: "Yes, revoke" }).click();
  await expect(row).toContainText("Revoked");

  const refused = await call();
  expect(refused.status()).toBe(401);
  expect((await refused.json()).error.code).toBe("invalid_api_key");
});

test("team: an owner invites a teammate by email, who signs in as a member of the organization", async ({
  dashboard: page,
  browser,
  merchant,
}) => {
  const teammate = `teammate-${Date.now()}@example.com`;
  await page.goto("/dashboard/settings");
  await page.getByLabel("Email", { exact: true }).fill(teammate);
  await page.getByLabel("Role").selectOption("MEMBER");
  await page.getByRole("button", { name: "Invite" }).click();
  await expect(page.getByRole("status")).toContainText(`Invitation sent to ${teammate}`);
  await expect(page.getByRole("list", { name: "Pending invitations" })).toContainText(teammate);

  const teammatePage = await signInElsewhere(browser, teammate);
  await expect(teammatePage.getByText("E2E Store").first()).toBeVisible();
  await teammatePage.goto("/dashboard/settings");
  const members = teammatePage.getByRole("list", { name: "Members" });
  const teammateRow = members.getByRole("listitem").filter({ hasText: teammate });
  await expect(teammateRow).toContainText(`${teammate} (you)`);
  await expect(teammateRow).toContainText("Member · joined");
  await expect(members).toContainText(merchant.email);
  // Members read the team and settings but do not manage them.
  await expect(teammatePage.getByRole("button", { name: "Invite" })).toHaveCount(0);
  await expect(teammatePage.getByRole("button", { name: "Remove" })).toHaveCount(0);
  await teammatePage.context().close();

  await page.reload();
  await expect(page.getByRole("list", { name: "Pending invitations" })).toHaveCount(0);
  await expect(page.getByRole("list", { name: "Members" })).toContainText(teammate);

  await screenshots(page, "settings");

  // The only owner cannot remove themselves.
  const ownerRow = page.getByRole("listitem").filter({ hasText: merchant.email });
  await ownerRow.getByRole("button", { name: "Remove" }).click();
  // The organization's first key is the owner's own: listed, revoked with them unless kept.
  await expect(ownerRow).toContainText("You created 1 API key (Default, sk_live_");
  await expect(ownerRow).toContainText("which will be revoked too unless you keep it");
  await expect(ownerRow.getByRole("checkbox", { name: "Keep it working" })).not.toBeChecked();
  await ownerRow.getByRole("button", { name: "Yes, remove" }).click();
  await expect(ownerRow.getByRole("alert")).toHaveText(
    "An organization must keep at least one owner. Invite another owner before removing this one.",
  );
});

test("settings: the owner renames the organization, sets a checksum-checked wallet and the default webhook URL", async ({
  dashboard: page,
  merchant,
  request,
}) => {
  const address = "0x52908400098527886E0F7030069857D2E4169EE7"; // EIP-55 test vector
  const organization = async () =>
    (
      await (
        await request.get("/api/private/organization/current", {
          headers: { authorization: `Bearer ${merchant.apiKey}` },
        })
      ).json()
    ).data;
  const card = (title: string) =>
    page.locator("section").filter({ has: page.getByRole("heading", { name: title }) });
  await page.goto("/dashboard/settings");

  await card("Organization").getByLabel("Name").fill("Renamed Store");
  await page.getByRole("button", { name: "Save name" }).click();
  await expect(card("Organization").getByRole("status")).toHaveText("Saved.");
  await expect(page.getByText("Renamed Store").first()).toBeVisible();

  const wallets = card("Settlement wallets");
  await page.getByLabel("Local devnet").fill(address.replace("E0F", "e0F"));
  await page.getByRole("button", { name: "Save wallets" }).click();
  await expect(wallets.getByRole("alert")).toHaveText(
    "Invalid devnet: has a wrong EIP-55 checksum (check the mixed-case letters)",
  );
  await page.getByLabel("Local devnet").fill(address.toLowerCase());
  await page.getByRole("button", { name: "Save wallets" }).click();
  // The network's first wallet: in force at once.
  await expect(wallets.getByRole("status")).toHaveText(
    "Saved. Changes of a wallet are listed above with when they take effect.",
  );

  await page.getByLabel("URL").fill("http://127.0.0.1:9/hooks");
  await page.getByRole("button", { name: "Save URL" }).click();
  await expect(card("Default webhook URL").getByRole("status")).toHaveText("Saved.");

  // The agents' refund cap: a typo is refused and changes nothing; a valid cap and the checkbox land.
  const refunds = card("Refunds");
  const cap = refunds.getByLabel("Agents' daily refund cap (USD)");
  await cap.evaluate((input) => input.removeAttribute("pattern"));
  await cap.fill("12.345");
  await refunds.getByRole("button", { name: "Save refund settings" }).click();
  await expect(refunds.getByRole("alert")).toContainText('must be a USD amount such as "100.00"');
  expect((await organization()).autoRefundOverpayments).toBe(false);
  await cap.fill("250.5");
  await refunds
    .getByLabel("Refund the overpaid part of a confirmed invoice to its payer automatically")
    .check();
  await refunds.getByRole("button", { name: "Save refund settings" }).click();
  await expect(refunds.getByRole("status")).toHaveText("Saved.");
  expect(await organization()).toMatchObject({
    name: "Renamed Store",
    webhookUrl: "http://127.0.0.1:9/hooks",
    settlementWallets: [{ network: "devnet", address }],
    refundAgentDailyCapUsd: "250.50",
    autoRefundOverpayments: true,
  });

  // Last month's report by email, to one owner (the session signed in moments ago: recent enough).
  const monthly = card("Monthly report");
  await monthly.getByLabel("Email last month's payments report on the 1st of each month").check();
  const sendTo = monthly.getByRole("combobox", { name: "Send to" });
  const owner = (await sendTo.locator("option").nth(1).getAttribute("value")) as string;
  await sendTo.selectOption(owner);
  await monthly.getByRole("button", { name: "Save monthly report" }).click();
  await expect(monthly.getByRole("status")).toHaveText("Saved.");
  expect(
    await appSql(`SELECT "monthlyReportEmail", "monthlyReportTo" FROM "Organization" WHERE "id" = $1`, [
      merchant.organizationId,
    ]),
  ).toEqual([{ monthlyReportEmail: true, monthlyReportTo: owner }]);

  await page.reload();
  await expect(page.getByLabel("Local devnet")).toHaveValue(address);
  await page.getByLabel("URL").fill("");
  await page.getByRole("button", { name: "Save URL" }).click();
  await expect(card("Default webhook URL").getByRole("status")).toHaveText("Saved.");
  expect((await organization()).webhookUrl).toBeNull();
});

test("a member of another organization gets a 404 for the first organization's paylink", async ({
  dashboard: page,
  browser,
  merchant,
  request,
}) => {
  const created = await request.post("/api/private/paylinks/create", {
    headers: { authorization: `Bearer ${merchant.apiKey}` },
    data: { name: "Private pricing", amount: "99.00", currency: "USD" },
  });
  const { id } = (await created.json()).data;
  expect((await page.goto(`/dashboard/paylinks/${id}`))?.status()).toBe(200);

  const outsider = await signInElsewhere(browser, `outsider-${Date.now()}@elsewhere.example`);
  const response = await outsider.goto(`/dashboard/paylinks/${id}`);
  expect(response?.status()).toBe(404);
  await expect(outsider.getByText("Private pricing")).toHaveCount(0);
  await outsider.context().close();
});
