import { readFileSync } from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { locales } from "../lib/i18n/locales";
import { appSql, expect, paidTestSession, test } from "./fixtures";

// A buyer's receipt as the buyer meets it: a session with their email is paid on the devnet, the
// receipt email arrives in the mailbox with its link, and the page opens without signing in, in
// every language, passes axe-core (WCAG 2.1 AA) on a phone and a laptop, and prints.

const wcag = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
/** A language's messages, as the page reads them. */
const catalog = (locale: string) =>
  JSON.parse(readFileSync(path.join(import.meta.dirname, "../lib/i18n/messages", `${locale}.json`), "utf8"));

test("a paid session's buyer is emailed a receipt whose page opens without sign-in, in six languages, and prints", async ({
  merchant,
  request,
  browser,
}) => {
  test.setTimeout(300_000);
  const details = await request.put("/api/private/organization/current", {
    headers: { authorization: `Bearer ${merchant.apiKey}` },
    data: { legalName: "E2E Store Ltd", taxId: "GB123456789", supportEmail: "help@e2e-store.example" },
  });
  expect(details.status()).toBe(200);
  const email = `buyer.${Date.now()}${Math.floor(Math.random() * 1000)}@example.com`;
  await paidTestSession(request, merchant, { amount: "40.00", currency: "USD", customerEmail: email });

  await expect
    .poll(async () => (await appSql(`SELECT "text" FROM "DevEmail" WHERE "to" = $1`, [email])).length, {
      timeout: 60_000,
    })
    .toBe(1);
  const [mail] = (await appSql(`SELECT "subject", "text" FROM "DevEmail" WHERE "to" = $1`, [email])) as {
    subject: string;
    text: string;
  }[];
  expect(mail.subject).toBe("Your receipt from E2E Store");
  expect(mail.text).toContain("GB123456789");
  const link = /(https?:\/\/\S+\/receipt\/\S+)/.exec(mail.text)?.[1] as string;
  expect(link).toMatch(/\/receipt\/inv_[0-9A-Za-z]{24}\.[A-Za-z0-9_-]{43}$/);

  for (const locale of locales) {
    const messages = catalog(locale);
    // A browser of the buyer's own: no dashboard session.
    const context = await browser.newContext({ locale });
    const page = await context.newPage();
    const response = await page.goto(link);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("heading", { name: messages.checkout.receipt.heading })).toBeVisible();
    await expect(page.getByTestId("receipt-amount")).toContainText("USDC");
    await expect(page.getByTestId("receipt")).toContainText("E2E Store Ltd");
    await expect(page.getByTestId("receipt")).toContainText("GB123456789");
    // Nothing on it moves money.
    expect(await page.locator('a[href*="/refund/"]').count()).toBe(0);
    if (locale === "en") {
      for (const width of [390, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        const results = await new AxeBuilder({ page }).withTags(wcag).analyze();
        expect(results.violations.map((violation) => `${width}px: ${violation.id}`)).toEqual([]);
      }
      await page.emulateMedia({ media: "print" });
      await expect(page.getByTestId("receipt")).toBeVisible();
      await expect(page.getByRole("button", { name: messages.receipt.print })).toBeHidden();
      expect((await page.pdf()).byteLength).toBeGreaterThan(1000);
    }
    await context.close();
  }

  // A forged, truncated or odd token is the page's 404, never a 500; a NUL in the path is refused
  // before the page (400).
  const [base, token] = link.split("/receipt/");
  for (const odd of [
    `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`,
    token.slice(0, -5),
    "inv_x",
    "a".repeat(5000),
  ]) {
    expect((await request.get(`${base}/receipt/${odd}`)).status()).toBe(404);
  }
  expect((await request.get(`${base}/receipt/%00`)).status()).toBe(400);
});
