import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { createPublicClient, erc20Abi, type Hex, http, parseEventLogs } from "viem";
import { hardhat } from "viem/chains";
import { appEnv, appSql, expect, paidTestInvoice, test } from "./fixtures";

// Refunds as people meet them: an owner refunds a paid invoice through a claim link from the
// invoice page, the buyer opens the link in a browser of their own and types an address twice,
// the in-process signer sends it from the merchant's refund wallet (read back from the chain), and
// the pages involved pass axe-core (WCAG 2.1 AA).

const wcag = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
const buyerAddress = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const rpcUrl = () => `http://127.0.0.1:${appEnv().SERVICE_DEVNET_PORT}`;

/**
 * A buyer's address of its own per test (jane…@example.com): each gets the claim link, a code and
 * a receipt, and one address may be mailed only so often an hour.
 */
const buyerEmail = () => `jane.${Date.now()}${Math.floor(Math.random() * 1000)}@example.com`;

/**
 * The buyer asks for the one-time code on the claim page and types it from the email (the dev
 * mailbox); the session's email is known, so the claim needs it.
 */
async function enterEmailedCode(buyer: Page, to: string) {
  const before = new Date();
  await buyer.getByRole("button", { name: "Email me a code" }).click();
  await expect(buyer.getByTestId("refund-code-sent")).toBeVisible();
  const [email] = (await appSql(
    `SELECT "text" FROM "DevEmail" WHERE "to" = $1 AND "subject" LIKE 'Your code%' AND "createdAt" >= $2 ORDER BY "createdAt" DESC LIMIT 1`,
    [to, before],
  )) as { text: string }[];
  const code = /^(\d{6})$/m.exec(email.text)?.[1] as string;
  await buyer.getByLabel("Code from your email").fill(code);
}

/** The owner refunds `amount` of the invoice through a claim link on its page; returns the refund's id and link. */
async function claimRefundFromInvoicePage(page: Page, invoiceId: string, amount: string) {
  await page.goto(`/dashboard/invoices/${invoiceId}`);
  await page.getByLabel("Amount in USDC").fill(amount);
  await page.getByLabel("Destination").selectOption("claim");
  await page.getByLabel("Reason (optional)").fill("Returned item");
  await page.getByRole("button", { name: "Refund", exact: true }).click();
  const created = page.getByRole("status").filter({ hasText: /Refund rfd_\w+ created \(pending claim\)/ });
  await expect(created).toBeVisible();
  await created.getByRole("link", { name: "Open it" }).click();
  await expect(page).toHaveURL(/\/dashboard\/refunds\/rfd_/);
  const id = page.url().split("/").at(-1) as string;
  const claimUrl = (await page.getByTestId("claim-url").textContent()) as string;
  expect(claimUrl).toMatch(new RegExp(`^${appEnv().SERVICE_BASE_URL}/refund/[A-Za-z0-9_-]{43}$`));
  return { id, claimUrl };
}

/** Every WCAG 2.1 A/AA violation on the page as it is now, one line each. */
async function violations(page: Page, name: string) {
  const results = await new AxeBuilder({ page }).withTags(wcag).analyze();
  return results.violations.map(
    (violation) =>
      `${name}: ${violation.impact} ${violation.id} ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
  );
}

test("a claim refund: created on the invoice page, claimed by the buyer with an address typed twice, used once", async ({
  dashboard: page,
  merchant,
  request,
  browser,
}) => {
  // Axe over many pages and widths: CPU-bound in the browser, 250 s seen under CI's full load.
  test.setTimeout(480_000);
  const email = buyerEmail();
  const invoiceId = await paidTestInvoice(request, merchant, email);
  const { id, claimUrl } = await claimRefundFromInvoicePage(page, invoiceId, "16.5");
  await expect(page.getByTestId("refund-amount")).toHaveText("16.5 USDC");
  await expect(page.getByText(`emailed to ${email}`)).toBeVisible();

  // The buyer: another browser, signed out, in German.
  const buyer = await browser.newContext({ locale: "de-DE" });
  const tab = await buyer.newPage();
  const stale = await buyer.newPage();
  // The checkout's headers: scripts only with the response's nonce, no framing, and the bearer
  // link never sent to another site (the fixture fails the test on any CSP violation).
  const headers = (await tab.goto(claimUrl))?.headers() ?? {};
  expect(headers["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(headers["referrer-policy"]).toBe("same-origin");
  expect(headers["x-frame-options"]).toBe("DENY");
  await stale.goto(claimUrl);
  await expect(tab.getByRole("heading", { level: 1 })).toHaveText("E2E Store");
  await expect(tab.getByTestId("refund-amount")).toHaveText("16,5 USDC");
  await expect(tab.getByTestId("refund-network")).toHaveText("auf Local devnet");
  await expect(tab.getByText("Wir benachrichtigen j…@example.com")).toBeVisible();
  await tab.getByRole("combobox", { name: "Sprache" }).selectOption("en");
  await expect(tab.getByTestId("refund-network")).toHaveText("on Local devnet");

  const address = tab.getByLabel("Your Local devnet address");
  const again = tab.getByLabel("The same address again");
  const submit = tab.getByRole("button", { name: "Send the refund to this address" });
  // Refused inputs, each named on its field (aria-invalid, the message read out as an alert).
  for (const [first, second, field, message] of [
    ["", "", address, "Enter your address."],
    ["0x1234", "0x1234", address, "This is not a valid address"],
    [
      buyerAddress.replace("C8", "c8"),
      buyerAddress,
      address,
      "its capital letters do not match its checksum",
    ],
    [buyerAddress, `0x${"ab".repeat(20)}`, again, "The two addresses differ."],
  ] as const) {
    await address.fill(first);
    await again.fill(second);
    await submit.click();
    await expect(field).toHaveAttribute("aria-invalid", "true");
    // Among the page's alerts (Next.js's route announcer is one).
    await expect(tab.getByRole("alert").filter({ hasText: message })).toBeVisible();
    await expect(field).toHaveAccessibleDescription(new RegExp(message.replace(/[.]/g, "\\.")));
  }
  expect(await appSql(`SELECT "status" FROM "Refund" WHERE "id" = $1`, [id])).toEqual([
    { status: "PENDING_CLAIM" },
  ]);

  // The link alone is not enough: the buyer's email is known, so the claim needs the emailed code.
  await address.fill(buyerAddress);
  await again.fill(buyerAddress);
  await submit.click();
  const code = tab.getByLabel("Code from your email");
  await expect(code).toHaveAttribute("aria-invalid", "true");
  await expect(tab.getByRole("alert").filter({ hasText: "Enter the code we emailed you." })).toBeVisible();
  await enterEmailedCode(tab, email);
  // Lower case the second time: the same address, stored checksummed.
  await again.fill(buyerAddress.toLowerCase());
  await submit.click();
  await expect(tab.getByTestId("refund-status")).toHaveText(
    "We have your address. The refund will be sent to it shortly.",
  );
  await expect(tab.getByTestId("refund-to")).toHaveText(buyerAddress);
  await tab.reload();
  await expect(tab.getByTestId("refund-status")).toBeVisible();
  await expect(tab.getByTestId("refund-claim-form")).toHaveCount(0);
  expect(await appSql(`SELECT "toAddress" FROM "Refund" WHERE "id" = $1`, [id])).toEqual([
    { toAddress: buyerAddress },
  ]);

  // A second tab opened before the claim (still in German, as it was loaded): refused, nothing changes.
  await stale.getByLabel("Ihre Local devnet-Adresse").fill(`0x${"ab".repeat(20)}`);
  await stale.getByLabel("Dieselbe Adresse noch einmal").fill(`0x${"ab".repeat(20)}`);
  await stale.getByRole("button", { name: "Rückerstattung an diese Adresse senden" }).click();
  await expect(
    stale
      .getByRole("alert")
      .filter({ hasText: "Für diese Rückerstattung wurde bereits eine Adresse eingegeben." }),
  ).toBeVisible();
  expect(await appSql(`SELECT "toAddress" FROM "Refund" WHERE "id" = $1`, [id])).toEqual([
    { toAddress: buyerAddress },
  ]);
  // The signer sends it: exactly 16.5 USDC to the typed address, in the transaction the refund names.
  await expect
    .poll(async () => (await appSql(`SELECT "status" FROM "Refund" WHERE "id" = $1`, [id]))[0].status, {
      timeout: 90_000,
    })
    .toBe("SUCCEEDED");
  const [{ txHash }] = (await appSql(`SELECT "txHash" FROM "Refund" WHERE "id" = $1`, [id])) as {
    txHash: Hex;
  }[];
  const client = createPublicClient({ chain: hardhat, transport: http(rpcUrl()) });
  const receipt = await client.getTransactionReceipt({ hash: txHash });
  expect(receipt.status).toBe("success");
  const transfers = parseEventLogs({ abi: erc20Abi, logs: receipt.logs, eventName: "Transfer" });
  expect(transfers.map((log) => [log.args.to, log.args.value])).toEqual([[buyerAddress, 16_500_000n]]);
  await tab.reload();
  await expect(tab.getByTestId("refund-status")).toHaveText("The refund has been sent.");
  await buyer.close();

  // The merchant sees it sent to the buyer's address, on the invoice and in Refunds.
  await page.goto(`/dashboard/invoices/${invoiceId}`);
  const row = page.getByRole("row", { name: new RegExp(id) });
  await expect(row).toContainText("Succeeded");
  await expect(row).toContainText(buyerAddress);
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Refunds" }).click();
  await page.getByLabel("Status").selectOption("succeeded");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByRole("row", { name: new RegExp(id) })).toContainText("16.5 USDC");
});

/**
 * Moves a claim link's expiry into the past. Its token is derived from the expiry with the app's
 * secret key (lib/refunds/claim-token.ts), so the link that works is made here the same way.
 */
async function expireClaimLink(refundId: string) {
  const env = appEnv();
  process.env.SERVICE_SECRET_KEY = env.SERVICE_SECRET_KEY;
  process.env.SERVICE_BASE_URL = env.SERVICE_BASE_URL;
  const { claimTokenFor, claimUrlFor, hashClaimToken } = await import("../lib/refunds/claim-token");
  const expiresAt = new Date(Date.now() - 1000);
  await appSql(`UPDATE "Refund" SET "claimExpiresAt" = $2, "claimTokenHash" = $3 WHERE "id" = $1`, [
    refundId,
    expiresAt,
    hashClaimToken(claimTokenFor(refundId, expiresAt)),
  ]);
  return claimUrlFor(refundId, expiresAt);
}

test("claim links: re-sent retires the old link, expired says so and fails the refund, cancelled says so and takes no address", async ({
  dashboard: page,
  merchant,
  request,
}) => {
  test.setTimeout(240_000);
  const invoiceId = await paidTestInvoice(request, merchant);
  const expiring = await claimRefundFromInvoicePage(page, invoiceId, "5");
  await page.getByRole("button", { name: "Re-send claim link" }).click();
  await page.getByRole("button", { name: "Yes, re-send" }).click();
  await expect(page.getByTestId("claim-url")).not.toHaveText(expiring.claimUrl);
  expect((await request.get(expiring.claimUrl)).status()).toBe(404);

  const expired = await expireClaimLink(expiring.id);
  const buyer = await page.context().browser()?.newPage();
  if (!buyer) throw new Error("no browser");
  await buyer.goto(expired);
  await expect(buyer.getByTestId("refund-status")).toHaveText(
    "This refund link has expired. Contact E2E Store for a new one.",
  );
  await expect(buyer.getByTestId("refund-claim-form")).toHaveCount(0);
  await buyer.close();
  expect(
    await appSql(`SELECT "status", "failureReason" FROM "Refund" WHERE "id" = $1`, [expiring.id]),
  ).toEqual([
    { status: "FAILED", failureReason: "The claim link expired before the buyer entered an address." },
  ]);
  await page.reload();
  await expect(page.getByText("The claim link expired before the buyer entered an address.")).toBeVisible();

  const cancelled = await claimRefundFromInvoicePage(page, invoiceId, "5");
  await page.getByRole("button", { name: "Cancel refund" }).click();
  await page.getByRole("button", { name: "Yes, cancel it" }).click();
  await expect(page.getByText("cancelled by the merchant")).toBeVisible();
  await page.goto(cancelled.claimUrl);
  await expect(page.getByText("cancelled this refund.")).toBeVisible();
  await expect(page.getByLabel(/address/i)).toHaveCount(0);
});

test("axe (WCAG 2.1 AA): the claim page at 390 and 1280 px, the invoice page, Refunds, Settlement and Settings", async ({
  dashboard: page,
  merchant,
  request,
  browser,
}) => {
  // Axe over many pages and widths: CPU-bound in the browser, 250 s seen under CI's full load.
  test.setTimeout(480_000);
  const email = buyerEmail();
  const invoiceId = await paidTestInvoice(request, merchant, email);
  const { id, claimUrl } = await claimRefundFromInvoicePage(page, invoiceId, "1");
  const found: string[] = [];
  // axe needs a page of a context made with browser.newContext().
  const buyerContext = await browser.newContext();
  const buyer = await buyerContext.newPage();
  for (const width of [390, 1280]) {
    await buyer.setViewportSize({ width, height: 900 });
    for (const colorScheme of ["light", "dark"] as const) {
      await buyer.emulateMedia({ colorScheme });
      await buyer.goto(claimUrl);
      await expect(buyer.getByTestId("refund-claim-form")).toBeVisible();
      found.push(...(await violations(buyer, `claim form ${width}px ${colorScheme}`)));
      // With an error shown, as a buyer who mistyped sees it.
      await buyer.getByRole("button", { name: "Send the refund to this address" }).click();
      await expect(buyer.getByRole("alert").filter({ hasText: "Enter your address." })).toBeVisible();
      found.push(...(await violations(buyer, `claim error ${width}px ${colorScheme}`)));
    }
  }
  await buyer.getByLabel("Your Local devnet address").fill(buyerAddress);
  await buyer.getByLabel("The same address again").fill(buyerAddress);
  await enterEmailedCode(buyer, email);
  await buyer.getByRole("button", { name: "Send the refund to this address" }).click();
  await expect(buyer.getByTestId("refund-status")).toBeVisible();
  for (const width of [390, 1280]) {
    await buyer.setViewportSize({ width, height: 900 });
    found.push(...(await violations(buyer, `claim status ${width}px`)));
  }
  await buyerContext.close();

  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    for (const path of [
      `/dashboard/invoices/${invoiceId}`,
      "/dashboard/refunds",
      `/dashboard/refunds/${id}`,
      "/dashboard/settlement",
      "/dashboard/settings",
    ]) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      found.push(...(await violations(page, `${path} ${width}px`)));
    }
  }
  expect(found).toEqual([]);
});

test("balances on the Settlement page carry their unit", async ({ dashboard: page }) => {
  // The in-process sweeper reports the devnet's gas wallet, funded at start, on its first pass.
  await expect(async () => {
    await page.goto("/dashboard/settlement");
    await expect(page.getByText("No sweeper has reported yet")).toHaveCount(0);
  }).toPass({ timeout: 60_000 });
  await expect(page.getByText(/^\d+(\.\d+)? ETH$/).first()).toBeVisible();
});
