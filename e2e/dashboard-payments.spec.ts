import { mkdir } from "node:fs/promises";
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, type Merchant, paidTestSession, signIn, test } from "./fixtures";

/** A session paid in full on the devnet, as a buyer would. */
const paidSession = (request: APIRequestContext, merchant: Merchant, orderId: string) =>
  paidTestSession(request, merchant, {
    amount: "42.50",
    currency: "USD",
    merchantOrderId: orderId,
    description: "Dashboard test order",
  });

async function screenshot(page: Page, name: string) {
  await mkdir("test-results/screenshots", { recursive: true });
  for (const [width, height, suffix] of [
    [1280, 800, "desktop"],
    [390, 844, "phone"],
  ] as const) {
    await page.setViewportSize({ width, height });
    // No page may scroll sideways: tables and code scroll inside their cards. On failure, name
    // the elements that stick out.
    const overflowing = await page.evaluate(
      (limit) =>
        [...document.querySelectorAll("body *")]
          .filter((element) => {
            if (element.getBoundingClientRect().right <= limit + 1) return false;
            // Inside a scrolling box (a table, a code block, the phone nav) sticking out is fine.
            for (let parent = element.parentElement; parent; parent = parent.parentElement) {
              if (getComputedStyle(parent).overflowX !== "visible") return false;
            }
            return true;
          })
          .slice(0, 5)
          .map((element) => `${element.tagName.toLowerCase()}.${element.className}`),
      width,
    );
    expect(overflowing).toEqual([]);
    await page.screenshot({ path: `test-results/screenshots/${name}-${suffix}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test("a paid order shows on the overview, in the lists and with its whole timeline", async ({
  dashboard: page,
  request,
  merchant,
}) => {
  test.setTimeout(150_000);
  await expect(page.getByRole("heading", { name: "Create your first checkout session" })).toBeVisible();
  await expect(
    page.getByText(`curl http://127.0.0.1:${process.env.E2E_PORT ?? 3100}/api/checkout-sessions`),
  ).toBeVisible();
  await screenshot(page, "overview-empty");

  const { sessionId, invoiceId } = await paidSession(request, merchant, "A-1001");
  await request.post("/api/checkout-sessions", {
    headers: { authorization: `Bearer ${merchant.apiKey}`, "idempotency-key": `dash-open-${Date.now()}` },
    data: { amount: "9.99", currency: "EUR", merchantOrderId: "A-1002" },
  });

  await page.reload();
  await expect(page.getByRole("heading", { name: "Create your first checkout session" })).toHaveCount(0);
  await expect(page.getByText("Confirmed volume, 30 days").locator("..")).toContainText("$42.50");
  await expect(page.getByText("Paid invoices, 30 days").locator("..")).toContainText("1");
  await expect(page.getByText("payment.confirmed").first()).toBeVisible();
  await screenshot(page, "overview");

  await page.getByRole("link", { name: "Checkout sessions" }).click();
  await expect(page.getByRole("row")).toHaveCount(3);
  await page.getByLabel("Status").selectOption("OPEN");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/status=OPEN/);
  await expect(page.getByRole("row")).toHaveCount(2);
  await expect(page.getByRole("cell", { name: "€9.99" })).toBeVisible();
  await page.getByLabel("Session, invoice or order id").fill("A-1001");
  await page.getByLabel("Status").selectOption("");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByRole("row")).toHaveCount(2);
  await screenshot(page, "sessions");
  await page.getByRole("link", { name: sessionId }).click();
  await expect(page.getByRole("heading", { name: sessionId })).toBeVisible();
  await expect(page.getByText("Transfer of 42.500000 USDC")).toBeVisible();
  await screenshot(page, "session-detail");

  await page.getByRole("link", { name: "Invoice", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/invoices/${invoiceId}$`));
  await expect(page.getByText("Invoice created")).toBeVisible();
  await expect(page.getByText(/Transfer of 42\.500000 USDC/)).toBeVisible();
  await expect(page.getByText(/confirmations/)).toBeVisible();
  await expect(page.getByText("payment.confirmed")).toBeVisible();
  await expect(page.getByText("invoice.created")).toBeVisible();
  await screenshot(page, "invoice-detail");

  await page.getByRole("link", { name: "Invoices" }).first().click();
  await expect(page.getByRole("link", { name: invoiceId })).toBeVisible();
  await screenshot(page, "invoices");
});

test("another organization's member gets 404 for this organization's pages", async ({
  dashboard: page,
  request,
  merchant,
  browser,
}) => {
  test.setTimeout(150_000);
  const { sessionId, invoiceId } = await paidSession(request, merchant, "B-2001");
  await page.goto(`/dashboard/invoices/${invoiceId}`);
  await expect(page.getByText("Invoice created")).toBeVisible();

  const stranger = await (await browser.newContext()).newPage();
  await signIn(stranger, `stranger-${Date.now()}@elsewhere.example`);
  for (const path of [`/dashboard/sessions/${sessionId}`, `/dashboard/invoices/${invoiceId}`]) {
    const response = await stranger.goto(path);
    expect(response?.status()).toBe(404);
  }
  await stranger.goto("/dashboard/sessions");
  await expect(stranger.getByText("No checkout sessions yet")).toBeVisible();
});
