import { expect, mailboxPath, signIn, test } from "./fixtures";

test("a new merchant signs in through the mailbox link and gets an organization", async ({ page }) => {
  const email = `new-${Date.now()}@shop.example`;
  await signIn(page, email);
  await expect(page.getByText("shop.example").first()).toBeVisible();
  // The link works once.
  await page.goto(mailboxPath());
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

test("the development mailbox opens only with its key: the link trades it for a cookie, anything else is a 401", async ({
  playwright,
  baseURL,
}) => {
  const key = mailboxPath().split("key=")[1];
  const fresh = () => playwright.request.newContext({ baseURL, maxRedirects: 0 });
  const closed = await fresh();
  for (const path of [
    "/dev/mailbox",
    "/dev/mailbox?key=",
    `/dev/mailbox?key=${key.slice(0, -1)}`,
    `/dev/mailbox?key=${key}x`,
    "/dev/%6Dailbox",
  ]) {
    const answer = await closed.get(path);
    expect({ path, status: answer.status() }).toEqual({ path, status: 401 });
    expect(await answer.text()).not.toContain(key);
  }
  const forged = await closed.get("/dev/mailbox", {
    headers: { cookie: `dev_mailbox=9999999999.${"A".repeat(43)}` },
  });
  expect(forged.status()).toBe(401);

  const opened = await fresh();
  const traded = await opened.get(mailboxPath());
  expect(traded.status()).toBe(303);
  const location = new URL(traded.headers().location, baseURL);
  expect(location.pathname + location.search).toBe("/dev/mailbox");
  const cookie = traded.headers()["set-cookie"];
  expect(cookie).toMatch(
    /^dev_mailbox=\d+\.[A-Za-z0-9_-]{43}; Path=\/dev\/mailbox; Max-Age=43200; HttpOnly; SameSite=Strict$/,
  );
  expect(cookie).not.toContain(key);
  const page = await opened.get("/dev/mailbox");
  expect(page.status()).toBe(200);
  expect(await page.text()).toContain("Development mailbox");
  // The same cookie relayed by a proxy on this machine still gets nothing.
  expect((await opened.get("/dev/mailbox", { headers: { "x-forwarded-for": "203.0.113.9" } })).status()).toBe(
    404,
  );
  await Promise.all([closed.dispose(), opened.dispose()]);
});
