import { readFile } from "node:fs/promises";
import AxeBuilder from "@axe-core/playwright";
import { appSql, expect, paidTestSession, test } from "./fixtures";

// The books from the dashboard: a member (not only an owner) exports this month's payments and
// refunds as CSV files from the Invoices and Refunds pages, with the browser's own download, and
// reads this month's summary on the overview.

test("a member downloads the payments CSV from Invoices and the refunds CSV from Refunds, and reads the month's books on the overview", async ({
  dashboard: page,
  request,
  merchant,
}) => {
  test.setTimeout(150_000);
  const { sessionId, invoiceId } = await paidTestSession(request, merchant, {
    amount: "12.00",
    currency: "USD",
    merchantOrderId: "=SUM(A1)",
  });
  await appSql(`UPDATE "Membership" SET "role" = 'MEMBER' WHERE "organizationId" = $1`, [
    merchant.organizationId,
  ]);

  await page.goto("/dashboard/invoices");
  const form = page.getByRole("form", { name: "Export confirmed payments as CSV" });
  await expect(form.getByLabel("From (UTC)")).toHaveValue(/^\d{4}-\d{2}-01$/);
  expect((await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze()).violations).toEqual([]);
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    form.getByRole("button", { name: "Export CSV" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^payments_\d{4}-\d{2}-01_\d{4}-\d{2}-01\.csv$/);
  const lines = (await readFile((await download.path()) as string, "utf8")).split("\r\n");
  expect(lines[0]).toBe(
    "paid_at,invoice_id,checkout_session_id,merchant_order_id,network,token,token_amount,tx_hash,payer_address,currency,amount,amount_usd,rate,quote_source,refunded_amount",
  );
  // Up to amount_usd no cell holds a comma, so a plain split reads them.
  const row = lines.find((line) => line.includes(invoiceId))?.split(",") ?? [];
  expect(row.slice(1, 7)).toEqual([invoiceId, sessionId, "'=SUM(A1)", "devnet", "USDC", "12.000000"]);
  expect(row[7]).toMatch(/^0x[0-9a-f]{64}$/);
  expect(row.slice(9, 12)).toEqual(["USD", "12.00", "12.00"]);
  expect(row.at(-1)).toBe("0.000000");

  await page.goto("/dashboard/refunds");
  const [refunds] = await Promise.all([
    page.waitForEvent("download"),
    page
      .getByRole("form", { name: "Export refunds as CSV" })
      .getByRole("button", { name: "Export CSV" })
      .click(),
  ]);
  expect(await readFile((await refunds.path()) as string, "utf8")).toBe(
    "created_at,refund_id,invoice_id,network,token,amount,status,to_address,tx_hash,reason\r\n",
  );

  await page.goto("/dashboard");
  const books = page.locator("section", { has: page.getByRole("heading", { name: /^Books for / }) });
  await expect(books.getByRole("definition")).toHaveText(["$12.00", "$0.00", "$12.00"]);
  await expect(books.getByRole("row", { name: /^USDC/ })).toHaveText(/USDC\s*12 USDC\s*0 USDC\s*12 USDC/);
  await expect(books.getByRole("img", { name: /^Per day in USD: received up to \$12\.00/ })).toBeVisible();
  expect((await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze()).violations).toEqual([]);
  const months = books.getByRole("combobox", { name: "Month" });
  const previous = (await months.locator("option").nth(1).getAttribute("value")) as string;
  await months.selectOption(previous);
  await books.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(new RegExp(`month=${previous}$`));
  await expect(books.getByText(/^No payments or refunds in /)).toBeVisible();
});
