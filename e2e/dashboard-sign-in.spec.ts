import { expect, signIn, test } from "./fixtures";

test("a new merchant signs in through the mailbox link and gets an organization", async ({ page }) => {
  const email = `new-${Date.now()}@shop.example`;
  await signIn(page, email);
  await expect(page.getByText("shop.example").first()).toBeVisible();
  // The link works once.
  await page.goto("/dev/mailbox");
  const link = await page
    .getByTestId("dev-email")
    .filter({ hasText: `To: ${email}` })
    .first()
    .getByRole("link")
    .getAttribute("href");
  await page.context().clearCookies();
  await page.goto(link as string);
  await expect(page).toHaveURL(/\/login\?error=Verification/);
});

test("the dashboard sends signed-out visitors to sign in", async ({ page }) => {
  await page.goto("/dashboard/sessions");
  await expect(page).toHaveURL(/\/login/);
});

test("signing out ends the session", async ({ dashboard: page }) => {
  // The button acts once React has hydrated the page: a click that comes earlier on a busy
  // machine does nothing, so it is repeated until the sign-out happens.
  await expect(async () => {
    if (!page.url().includes("/login"))
      await page.getByRole("button", { name: "Sign out" }).first().click({ timeout: 3_000 });
    await expect(page).toHaveURL(/\/login/, { timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/login/);
});
