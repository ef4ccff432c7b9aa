import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import {
  type APIRequestContext,
  type BrowserContext,
  test as base,
  type ConsoleMessage,
  expect,
  type Page,
} from "@playwright/test";
import pg from "pg";
import { closeDb, createDb, type Db } from "../lib/db/client";
import { createOrganization } from "../lib/organizations/create-organization";
import { e2eEnvFile } from "../scripts/test-support/e2e-env";
import { startWebhookReceiver } from "../scripts/test-support/webhook-receiver";

const root = path.resolve(import.meta.dirname, "..");
const run = promisify(execFile);

export const appPort = Number(process.env.E2E_PORT ?? 3100);

/** The environment the app under test runs with (its database, data directory, base URL). */
export function appEnv(port = appPort): Record<string, string> {
  return JSON.parse(readFileSync(e2eEnvFile(port), "utf8"));
}

/** Runs `npm run admin -- …` against the database of the app under test, returning its JSON output. */
export async function admin(...args: string[]): Promise<Record<string, string>> {
  const { stdout } = await run(
    process.execPath,
    [path.join(root, "node_modules/tsx/dist/cli.mjs"), "scripts/admin.ts", ...args, "--json"],
    { cwd: root, env: { ...process.env, ...appEnv() } },
  );
  return JSON.parse(stdout.trim().split("\n").at(-1) as string);
}

/** The database of the app on `port`: its DATABASE_URL, or the embedded server it recorded in its data directory. */
function appDatabaseUrl(port = appPort): string {
  const env = appEnv(port);
  return (
    env.DATABASE_URL ||
    (JSON.parse(readFileSync(path.join(env.SERVICE_DATA_DIR, "postgres.json"), "utf8")) as { url: string })
      .url
  );
}

/**
 * Runs one SQL statement on the database of the app under test, for states a test cannot wait
 * for, such as expiry, and for checking rows.
 */
export async function appSql(text: string, values: unknown[] = [], port = appPort) {
  const client = new pg.Client(appDatabaseUrl(port));
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end();
  }
}

export type Merchant = { organizationId: string; apiKey: string; email: string };

/**
 * An organization with an owner and a first API key, made as `admin org:create` makes it
 * (scripts/admin.ts) but in this process: a CLI process cost about two CPU seconds, mostly loading
 * TypeScript. The command itself is tested in scripts/admin.int.test.ts and home.spec.ts.
 */
async function organizationIn(database: Db, name: string, email: string) {
  const created = await createOrganization(database, { name, ownerEmail: email });
  return { organizationId: created.organization.id, apiKey: created.apiKey };
}

/** organizationIn on the database of the app on `port` (an instance a spec started). */
export async function createOrganizationOn(port: number, name: string, email: string) {
  const database = createDb(appDatabaseUrl(port), 1);
  try {
    return await organizationIn(database, name, email);
  } finally {
    await closeDb(database);
  }
}

/** Signs `page` in as `email` the way a person does: ask for a link, open it from the mailbox. */
export async function signIn(page: Page, email: string) {
  await page.goto("/login");
  await page.getByLabel("Work email").fill(email);
  await page.getByRole("button", { name: "Email me a sign-in link" }).click();
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();
  await openMailboxLink(page, email);
  await expect(page).toHaveURL(/\/dashboard$/);
}

/**
 * The owner signed in on `page` sets the devnet settlement wallet on Settings: the network's first
 * wallet, in force at once while nothing waits to be paid there (an API key's would wait for an
 * owner, docs/api.md).
 */
export async function saveDevnetWallet(page: Page, address: string) {
  await page.goto("/dashboard/settings");
  await page.getByLabel("Local devnet").fill(address);
  await page.getByRole("button", { name: "Save wallets" }).click();
  await expect(
    page.getByText("Saved. Changes of a wallet are listed above with when they take effect."),
  ).toBeVisible();
}

/**
 * The development mailbox's link with its key, as `npm start` prints it (scripts/e2e-server.ts
 * gives the app its key): it opens the mailbox and leaves a cookie that keeps it open.
 */
export function mailboxPath(port = appPort): string {
  return `/dev/mailbox?key=${appEnv(port).SERVICE_DEV_MAILBOX_KEY}`;
}

/** Opens the link of the newest email to `email` in the development mailbox. */
export async function openMailboxLink(page: Page, email: string, href?: string) {
  await page.goto(mailboxPath());
  const emails = page.getByTestId("dev-email").filter({ hasText: `To: ${email}` });
  // A buyer's mailbox also holds receipts: `href` picks the email whose link goes there.
  await (href ? emails.locator(`a[href*="${href}"]`) : emails.getByRole("link")).first().click();
}

/** A checkout session for `merchant` (25.00 USD, success and cancel URLs on the app), created over the API. */
export async function createSession(
  request: APIRequestContext,
  merchant: Merchant,
  baseURL: string,
  overrides: Record<string, unknown> = {},
) {
  const response = await request.post("/api/checkout-sessions", {
    headers: {
      authorization: `Bearer ${merchant.apiKey}`,
      "idempotency-key": `e2e-checkout-${Date.now()}-${Math.random()}`,
    },
    data: {
      amount: "25.00",
      currency: "USD",
      description: "A box of stickers",
      successUrl: `${baseURL}/?paid={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${baseURL}/?cancelled=1`,
      ...overrides,
    },
  });
  expect(response.status()).toBe(200);
  return (await response.json()) as { id: string; url: string };
}

/**
 * What an agent pays in the agent specs: a 1.50 USD paylink of `merchant`, made over the API, and
 * a webhook receiver subscribed to the merchant's events (the caller closes it).
 */
export async function agentPaylink(request: APIRequestContext, merchant: Merchant) {
  const headers = { authorization: `Bearer ${merchant.apiKey}` };
  const receiver = await startWebhookReceiver();
  const endpoint = await request.post("/api/private/organization/webhook-endpoints", {
    headers,
    data: { name: "agent receiver", url: receiver.url, adapter: "NONE", enabled: true },
  });
  expect(endpoint.status()).toBe(201);
  const created = await request.post("/api/private/paylinks/create", {
    headers,
    data: { name: "Agent sticker", amount: "1.50", currency: "USD" },
  });
  expect(created.status()).toBe(201);
  const paylink = (await created.json()).data as { id: string; url: string; x402Url: string };
  return { headers, receiver, paylink };
}

/**
 * A checkout session (`session` is its create body) paid in full on the devnet, as a buyer would:
 * start paying in USDC, pay from the test wallet, wait for the watcher to confirm it.
 */
export async function paidTestSession(
  request: APIRequestContext,
  merchant: Merchant,
  session: Record<string, unknown>,
) {
  const created = await request.post("/api/checkout-sessions", {
    headers: { authorization: `Bearer ${merchant.apiKey}`, "idempotency-key": `paid-${randomUUID()}` },
    data: session,
  });
  expect(created.status()).toBe(200);
  const { id: sessionId } = (await created.json()) as { id: string };
  const started = await request.post("/api/public/payments", {
    data: { checkoutSessionId: sessionId, network: "devnet", token: "USDC" },
  });
  expect(started.status()).toBe(201);
  const { id: invoiceId } = (await started.json()) as { id: string };
  expect((await request.post(`/api/public/payments/${invoiceId}/devnet-pay`, { data: {} })).status()).toBe(
    200,
  );
  await expect
    .poll(async () => (await (await request.get(`/api/public/payments/${invoiceId}`)).json()).status, {
      timeout: 90_000,
    })
    .toBe("CONFIRMED");
  return { sessionId, invoiceId };
}

/** A 40 USD session (customer email known) paid in full: its invoice's id. */
export async function paidTestInvoice(
  request: APIRequestContext,
  merchant: Merchant,
  customerEmail = "jane@example.com",
) {
  const paid = await paidTestSession(request, merchant, { amount: "40.00", currency: "USD", customerEmail });
  return paid.invoiceId;
}

export const test = base.extend<
  { merchant: Merchant; dashboard: Page; cspViolations: string[] },
  { appDatabase: Db }
>({
  /** The shared app's database, one client per worker, for the merchants of its tests. */
  appDatabase: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads fixture dependencies from this pattern.
    async ({}, use) => {
      const database = createDb(appDatabaseUrl(), 1);
      await use(database);
      await closeDb(database);
    },
    { scope: "worker" },
  ],
  /**
   * Every browser context a test opens (its `page`, and any from `browser.newContext()`) is
   * watched: a Content Security Policy violation in the console fails the test, so a page that
   * breaks under the CSP cannot pass. A test that causes one on purpose empties the list.
   */
  cspViolations: [
    async ({ browser }, use) => {
      const violations: string[] = [];
      const record = (message: ConsoleMessage) => {
        if (/Content Security Policy/i.test(message.text()))
          violations.push(`${message.location().url || message.page()?.url()}: ${message.text()}`);
      };
      const watch = (context: BrowserContext) => context.on("console", record);
      for (const context of browser.contexts()) watch(context);
      browser.on("context", watch);
      await use(violations);
      browser.off("context", watch);
      expect(violations, "Content Security Policy violations in the browser console").toEqual([]);
    },
    { auto: true },
  ],
  merchant: async ({ appDatabase }, use, testInfo) => {
    const email = `merchant-${testInfo.workerIndex}-${Date.now()}@example.com`;
    await use({ ...(await organizationIn(appDatabase, "E2E Store", email)), email });
  },
  /** A page signed in to the dashboard as the merchant's owner. */
  dashboard: async ({ page, merchant }, use) => {
    await signIn(page, merchant.email);
    await use(page);
  },
});

export { expect };
