import type { Page } from "@playwright/test";
import { verifyWebhookSignature } from "crypto-checkout-agent/webhooks";
import { startWebhookReceiver } from "../scripts/test-support/webhook-receiver";
import { appSql, expect, signIn, test } from "./fixtures";

async function screenshots(page: Page, name: string) {
  for (const [width, height, suffix] of [
    [1280, 800, "desktop"],
    [390, 844, "phone"],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: `test-results/screenshots/${name}-${suffix}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** Sends a test event of `type` from the page and returns its event id, read from the confirmation. */
async function sendTestEvent(page: Page, type: string) {
  await page.getByLabel("Test event type").selectOption(type);
  await page.getByRole("button", { name: "Send test event" }).click();
  const sent = page.getByRole("status").filter({ hasText: `(${type})` });
  await expect(sent).toBeVisible();
  return (await sent.locator("code").textContent()) as string;
}

const signatureOf = (request: { headers: Record<string, string | string[] | undefined> }) =>
  (request.headers["x-service-signature"] as string | undefined) ?? "";

test("a merchant adds a webhook endpoint, tests it and watches deliveries and retries live", async ({
  dashboard: page,
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
  // Hydration mismatches (server and browser formatting times differently, say) and failing
  // API calls (the live log's polling) surface here. Failed loads are counted by URL instead:
  // the nav prefetches dashboard sections this branch does not have.
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) {
      problems.push(message.text());
    }
  });
  page.on("response", (response) => {
    if (response.status() >= 400 && new URL(response.url()).pathname.startsWith("/api/")) {
      problems.push(`${response.status()} ${response.url()}`);
    }
  });
  const receiver = await startWebhookReceiver();
  try {
    await page.goto("/dashboard/webhooks");
    await expect(page.getByText("No webhook endpoints yet")).toBeVisible();
    await expect(page.getByRole("link", { name: "API reference" }).first()).toHaveAttribute(
      "href",
      "/docs/api",
    );
    await screenshots(page, "webhooks-empty");

    // Create: the signing secret is shown once, and the copy button puts it on the clipboard.
    await page.getByLabel("Name").fill("Orders");
    await page.getByLabel("URL").fill(receiver.url);
    await page.getByLabel("Payload format").selectOption("NONE");
    await expect(page.getByLabel("Enabled")).toBeChecked();
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await expect(page.getByText("Signing secret: copy it now, it will not be shown again.")).toBeVisible();
    const secret = ((await page.getByTestId("secret-value").textContent()) ?? "").trim();
    expect(secret).toMatch(/^whsec_/);
    await page.getByRole("button", { name: "Copy Signing secret" }).click();
    await expect(page.getByRole("button", { name: "Copy Signing secret" })).toHaveText("Copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);

    const row = page
      .getByRole("listitem")
      .filter({ has: page.getByRole("link", { name: "Orders", exact: true }) });
    await expect(row).toContainText(receiver.url);
    await expect(row.getByText("Enabled", { exact: true })).toBeVisible();
    await expect(row.getByText("NONE", { exact: true })).toBeVisible();
    await screenshots(page, "webhooks");

    // Disabled endpoints receive nothing, test events included.
    await row.getByRole("button", { name: "Disable" }).click();
    await expect(row.getByText("Disabled", { exact: true })).toBeVisible();
    await row.getByRole("button", { name: "Send test event" }).click();
    await expect(row.getByRole("alert")).toContainText("This endpoint is disabled");
    await row.getByRole("button", { name: "Enable" }).click();
    await expect(row.getByText("Enabled", { exact: true })).toBeVisible();

    await page.getByRole("link", { name: "Open Orders" }).click();
    await expect(page).toHaveURL(/\/dashboard\/webhooks\/we_\w+$/);
    const endpointPath = new URL(page.url()).pathname;
    const endpointId = endpointPath.split("/").at(-1) as string;
    await expect(page.getByText("No deliveries yet")).toBeVisible();

    // A test event arrives signed with the secret, and the live log shows it delivered.
    const delivered = await sendTestEvent(page, "payment.confirmed");
    expect(delivered).toMatch(/^evt_test_/);
    const deliveredLog = page.getByRole("article", { name: `Delivery of ${delivered}` });
    await expect(deliveredLog.getByText("Delivered", { exact: true })).toBeVisible();
    await expect(deliveredLog.getByRole("listitem")).toHaveCount(1);
    await expect(deliveredLog.getByRole("listitem")).toContainText(/HTTP 200.*\d+ ms.*ok/);
    await expect(deliveredLog).toContainText("1 attempt");
    const received = receiver.received.find((request) => request.headers["x-service-event-id"] === delivered);
    expect(received).toBeDefined();
    expect(JSON.parse(received?.rawBody ?? "")).toMatchObject({
      id: delivered,
      type: "payment.confirmed",
      livemode: false,
    });
    expect(
      verifyWebhookSignature({
        rawBody: received?.rawBody ?? "",
        header: signatureOf(received ?? { headers: {} }),
        secret,
      }),
    ).toMatchObject({ valid: true });

    // The receiver fails: attempt 1 answers 500, and attempt 2 follows about 10 seconds later.
    receiver.script({ status: 500, body: "receiver down" }, { status: 500, body: "receiver down" });
    const failing = await sendTestEvent(page, "invoice.created");
    const failingLog = page.getByRole("article", { name: `Delivery of ${failing}` });
    await expect(failingLog.getByRole("listitem").first()).toContainText("HTTP 500");
    await expect(failingLog.getByRole("listitem").first()).toContainText("receiver down");
    await expect(failingLog.getByText("Pending", { exact: true })).toBeVisible();
    await expect(failingLog.getByText(/Next attempt/)).toBeVisible();
    await screenshots(page, "webhook-endpoint");
    await expect(failingLog.getByRole("listitem")).toHaveCount(2, { timeout: 40_000 });
    await expect(failingLog.getByRole("listitem").nth(1)).toContainText("HTTP 500");
    await expect(failingLog).toContainText("2 attempts");
    const [first, second] = receiver.received
      .filter((request) => request.headers["x-service-event-id"] === failing)
      .map((request) => request.receivedAt.getTime());
    expect(second - first).toBeGreaterThan(8_000);

    // Redeliver sends the delivered event again as a new delivery.
    await deliveredLog.first().getByRole("button", { name: "Redeliver" }).click();
    await expect(deliveredLog).toHaveCount(2);
    await expect(deliveredLog.first().getByText("Delivered", { exact: true })).toBeVisible();

    // Rotation asks first, shows the new secret once, and both secrets sign for 24 hours.
    await page.getByRole("button", { name: "Rotate secret" }).click();
    await page.getByRole("button", { name: "Yes, rotate" }).click();
    await expect(page.getByText("New signing secret: copy it now")).toBeVisible();
    const rotated = ((await page.getByTestId("secret-value").textContent()) ?? "").trim();
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await expect(
      page.getByText(/previous secret keeps signing alongside the new one for 24 hours/),
    ).toBeVisible();
    const afterRotation = await sendTestEvent(page, "payment.confirmed");
    await expect(
      page
        .getByRole("article", { name: `Delivery of ${afterRotation}` })
        .getByText("Delivered", { exact: true }),
    ).toBeVisible();
    const signed = receiver.received.find(
      (request) => request.headers["x-service-event-id"] === afterRotation,
    );
    for (const key of [rotated, secret]) {
      expect(
        verifyWebhookSignature({
          rawBody: signed?.rawBody ?? "",
          header: signatureOf(signed ?? { headers: {} }),
          secret: key,
        }),
      ).toMatchObject({ valid: true });
    }

    // Someone signed in to another organization cannot see this endpoint or its log.
    const other = await browser.newContext({ baseURL });
    try {
      const otherPage = await other.newPage();
      await signIn(otherPage, `other-${Date.now()}@elsewhere.example`);
      const response = await otherPage.goto(endpointPath);
      expect(response?.status()).toBe(404);
      await expect(otherPage.getByText("Webhook endpoint not found")).toBeVisible();
      const log = await otherPage.request.get(
        `/api/private/organization/webhook-endpoints/${endpointId}/deliveries`,
      );
      expect(log.status()).toBe(404);
    } finally {
      await other.close();
    }

    expect(problems).toEqual([]);

    // Delete asks first, then the list is empty again.
    await page.getByRole("button", { name: "Delete" }).click();
    await page.getByRole("button", { name: "Yes, delete" }).click();
    await expect(page).toHaveURL(/\/dashboard\/webhooks$/);
    await expect(page.getByText("No webhook endpoints yet")).toBeVisible();
    // The live log may poll once more between the deletion and leaving its page: that 404 is right.
    const goneLog = `/webhook-endpoints/${endpointId}/deliveries`;
    expect(problems.filter((problem) => !(problem.startsWith("404 ") && problem.includes(goneLog)))).toEqual(
      [],
    );
  } finally {
    await receiver.close();
  }
});

test("only owners change webhook endpoints: a member's request is refused, and a member sees no controls", async ({
  dashboard: page,
  merchant,
}) => {
  const receiver = await startWebhookReceiver();
  try {
    await page.goto("/dashboard/webhooks");
    await page.getByLabel("Name").fill("Orders");
    await page.getByLabel("URL").fill(receiver.url);
    // The owner becomes a plain member while the form is open: the server checks the role on
    // every call, whatever the page showed.
    await appSql(`UPDATE "Membership" SET "role" = 'MEMBER' WHERE "organizationId" = $1`, [
      merchant.organizationId,
    ]);
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await expect(
      page.getByRole("alert").filter({ hasText: "Only an owner of the organization can do this." }),
    ).toBeVisible();
    const endpoints = () =>
      appSql(`SELECT "id" FROM "WebhookEndpoint" WHERE "organizationId" = $1`, [merchant.organizationId]);
    expect(await endpoints()).toHaveLength(0);

    // API keys stay organization-level: the server adds an endpoint; the member may test it but
    // sees no way to change, rotate, disable or delete it.
    const created = await fetch(new URL("/api/private/organization/webhook-endpoints", page.url()), {
      method: "POST",
      headers: { authorization: `Bearer ${merchant.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "Orders", url: receiver.url }),
    });
    expect(created.status).toBe(201);
    await page.reload();
    await expect(
      page.getByText(/Only owners of .* can add, change and delete webhook endpoints/),
    ).toBeVisible();
    await expect(page.getByRole("button", { name: "Add endpoint" })).toHaveCount(0);
    for (const name of ["Rotate secret", "Disable", "Delete"]) {
      await expect(page.getByRole("button", { name })).toHaveCount(0);
    }
    await expect(page.getByRole("button", { name: "Send test event" })).toBeVisible();
    expect(await endpoints()).toHaveLength(1);
  } finally {
    await receiver.close();
  }
});
