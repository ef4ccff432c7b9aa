import { mkdirSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext, Page } from "@playwright/test";
import {
  appPort,
  createOrganizationOn,
  expect,
  type Merchant,
  saveDevnetWallet,
  signIn,
  test,
} from "./fixtures";

// The merchant's dashboard as people see it on a 390 px phone in dark and a 1280 px laptop in
// light: every page the navigation lists (reached through the phone's menu) and the detail pages,
// with rows in their tables. Nothing may run past the page or its card, nothing may be clipped
// without its full text in a tooltip, amounts show at most six decimals, and axe-core finds no
// WCAG 2.1 A/AA violation.

const wcag = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
const screens = "test-results/dashboard-screens";

/** A checkout session of `amount` USD with an invoice in `token`, paid from the devnet's test wallet when `pay`. */
async function invoiceOf(request: APIRequestContext, merchant: Merchant, token: string, pay: boolean) {
  const created = await request.post("/api/checkout-sessions", {
    headers: {
      authorization: `Bearer ${merchant.apiKey}`,
      "idempotency-key": `layout-${Date.now()}-${token}`,
    },
    data: {
      amount: "40.00",
      currency: "USD",
      merchantOrderId: `order-${token}`,
      customerEmail: "jane@example.com",
    },
  });
  expect(created.status()).toBe(200);
  const session = (await created.json()) as { id: string };
  const started = await request.post("/api/public/payments", {
    data: { checkoutSessionId: session.id, network: "devnet", token },
  });
  expect(started.status()).toBe(201);
  const invoice = (await started.json()) as { id: string };
  if (pay)
    expect((await request.post(`/api/public/payments/${invoice.id}/devnet-pay`, { data: {} })).status()).toBe(
      200,
    );
  return { sessionId: session.id, invoiceId: invoice.id };
}

/**
 * What runs past the page or a card (a <section> in main), and what is clipped (overflow hidden
 * with more content than fits) without the full text in a title. Content inside a scroll
 * container is measured by its container.
 */
function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const name = (element: Element) =>
      `<${element.tagName.toLowerCase()} class="${element.getAttribute("class") ?? ""}"> "${(element.textContent ?? "").trim().slice(0, 50)}"`;
    // A scroll container measures its own content; an element clipped by its box (a visually hidden
    // table head, a truncated name) is checked by the clipping rule below.
    const contains = (element: Element) => getComputedStyle(element).overflowX !== "visible";
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth)
      problems.push(`the page is ${root.scrollWidth} px wide in a ${root.clientWidth} px window`);
    for (const card of document.querySelectorAll("main section")) {
      const box = card.getBoundingClientRect();
      for (const element of card.querySelectorAll("*")) {
        const rect = element.getBoundingClientRect();
        if (rect.width <= 1 || rect.height <= 1) continue;
        let ancestor = element.parentElement;
        while (ancestor && ancestor !== card && !contains(ancestor)) ancestor = ancestor.parentElement;
        if (ancestor && ancestor !== card) continue;
        if (rect.right > box.right + 1 || rect.left < box.left - 1)
          problems.push(
            `runs past its card "${card.querySelector("h2")?.textContent ?? ""}": ${name(element)}`,
          );
      }
    }
    for (const element of document.querySelectorAll("body *")) {
      const style = getComputedStyle(element);
      if (!["hidden", "clip"].includes(style.overflowX) || element.clientWidth <= 1) continue;
      if (element.scrollWidth > element.clientWidth + 1 && !element.closest("[title]"))
        problems.push(`clipped: ${name(element)}`);
    }
    return problems;
  });
}

/** Amounts of a token shown with more than six decimals (the exact value is in the tooltip). */
async function longAmounts(page: Page): Promise<string[]> {
  const text = (await page.locator("main").textContent()) ?? "";
  return [...text.matchAll(/\d+\.(\d+) (ETH|USDC)\b/g)]
    .filter((match) => match[1].length > 6)
    .map((match) => match[0]);
}

async function axe(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).withTags(wcag).analyze();
  return results.violations.map(
    (violation) =>
      `${violation.impact} ${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
  );
}

/** The merchant whose pages every screen below walks, with rows in its tables. */
let prepared: { email: string; sections: { href: string; label: string }[]; details: string[] };

// One test per screen (width and colour scheme), each with its own time: axe over about fifteen
// page views is CPU-bound in the browser. They share one merchant, prepared once.
test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ browser, playwright }, testInfo) => {
  testInfo.setTimeout(300_000);
  const baseURL = testInfo.project.use.baseURL;
  const email = `layout-${Date.now()}@example.com`;
  const merchant: Merchant = { ...(await createOrganizationOn(appPort, "E2E Store", email)), email };
  const request = await playwright.request.newContext({ baseURL });
  const page = await browser.newPage({ baseURL });
  try {
    const auth = { authorization: `Bearer ${merchant.apiKey}` };
    await signIn(page, email);
    await saveDevnetWallet(page, "0x000000000000000000000000000000000000e2E5");
    const paid = await invoiceOf(request, merchant, "USDC", true);
    await invoiceOf(request, merchant, "ETH", false);
    await expect
      .poll(async () => (await (await request.get(`/api/public/payments/${paid.invoiceId}`)).json()).status, {
        timeout: 90_000,
      })
      .toBe("CONFIRMED");
    const refund = await request.post("/api/private/refunds", {
      headers: { ...auth, "idempotency-key": `layout-refund-${Date.now()}` },
      data: { invoiceId: paid.invoiceId, amount: "1.5", destination: "claim", reason: "Returned item" },
    });
    expect(refund.status()).toBe(200);
    const refundId = ((await refund.json()) as { data: { id: string } }).data.id;
    // A sweep row and a gas wallet on Settlement.
    await expect
      .poll(
        async () => {
          const listed = await request.get(`/api/private/sweeps?invoiceId=${paid.invoiceId}`, {
            headers: auth,
          });
          return ((await listed.json()) as { data: { data: unknown[] } }).data.data.length;
        },
        { timeout: 180_000, intervals: [1_000] },
      )
      .toBe(1);

    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto("/dashboard");
    const nav = page.getByRole("navigation", { name: "Dashboard" });
    await expect(nav.getByRole("button", { name: /Menu/ })).toBeHidden();
    const sections = await nav.getByRole("link").evaluateAll((links) =>
      links.map((link) => ({
        href: link.getAttribute("href") as string,
        label: link.textContent as string,
      })),
    );
    expect(sections.map((section) => section.label)).toEqual(
      expect.arrayContaining([
        "Overview",
        "Checkout sessions",
        "Invoices",
        "Refunds",
        "Settlement",
        "Webhooks",
        "Settings",
      ]),
    );
    const details = [
      `/dashboard/sessions/${paid.sessionId}`,
      `/dashboard/invoices/${paid.invoiceId}`,
      `/dashboard/refunds/${refundId}`,
    ];
    prepared = { email, sections, details };
  } finally {
    await page.close();
    await request.dispose();
  }
});

// Two screens cover both widths and both schemes: what overflows or clips depends on the width,
// and what axe finds in colour contrast on the scheme; each page's markup is the same in either.
const screensWalked = [
  { width: 390, colorScheme: "dark" },
  { width: 1280, colorScheme: "light" },
] as const;

for (const { width, colorScheme } of screensWalked)
  test(`every dashboard page at ${width} px, ${colorScheme}: reachable from the menu, nothing overflows or is clipped, short amounts, no axe violations`, async ({
    page,
  }) => {
    test.setTimeout(300_000);
    mkdirSync(screens, { recursive: true });
    await signIn(page, prepared.email);
    const nav = page.getByRole("navigation", { name: "Dashboard" });
    const menu = nav.getByRole("button", { name: /Menu/ });
    await page.setViewportSize({ width, height: 900 });
    await page.emulateMedia({ colorScheme });
    await page.goto("/dashboard");
    const views = [
      ...prepared.sections.map((section) => ({ ...section, detail: false })),
      ...prepared.details.map((href) => ({ href, label: href, detail: true })),
    ];
    const found: string[] = [];
    for (const view of views) {
      if (view.detail) await page.goto(view.href);
      else if (width === 390) {
        // On a phone the sections are behind the menu button, which stays in view.
        await expect(menu).toBeInViewport();
        await expect(nav.getByRole("link", { name: view.label })).toBeHidden();
        await menu.click();
        await expect(menu).toHaveAttribute("aria-expanded", "true");
        await nav.getByRole("link", { name: view.label, exact: true }).click();
      } else await nav.getByRole("link", { name: view.label, exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`${view.href}$`));
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      if (width === 390 && !view.detail)
        await expect(nav.getByRole("link", { name: view.label })).toBeHidden();
      const where = `${view.href} ${width}px ${colorScheme}`;
      for (const problem of await layoutProblems(page)) found.push(`${where}: ${problem}`);
      for (const amount of await longAmounts(page))
        found.push(`${where}: amount with more than 6 decimals: ${amount}`);
      for (const violation of await axe(page)) found.push(`${where}: ${violation}`);
      await page.screenshot({
        path: `${screens}/${view.href.replaceAll("/", "_")}-${width}-${colorScheme}.png`,
        fullPage: true,
      });
    }
    expect(found).toEqual([]);
  });
