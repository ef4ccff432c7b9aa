import { expect, mailboxPath, openMailboxLink, test } from "./fixtures";

// Both ways an agent gets a credential of its own, driven as the agent (plain HTTP) and as the
// person (Chromium) would: browser setup for an existing owner, and signup by email for a new one.

test("browser setup: start over HTTP, sign in and approve in the browser, check in, call the API", async ({
  page,
  request,
  merchant,
}) => {
  const started = await request.post("/api/agent/setup/start", {
    data: { agentName: "E2E agent", access: "write" },
  });
  expect(started.status()).toBe(201);
  const setup = await started.json();
  // A fixed page: the code is typed there by the owner, never carried by a link.
  expect(new URL(setup.loginUrl)).toMatchObject({ pathname: "/agent/setup", search: "" });
  const setupAuth = { authorization: `Bearer ${setup.setupToken}` };
  const checkinAuth = { authorization: `Bearer ${setup.checkinToken}` };
  expect((await request.post("/api/agent/setup/checkin", { headers: checkinAuth })).status()).toBe(202);

  // Signed out: the login URL goes through sign-in and comes back.
  await page.goto(setup.loginUrl);
  await expect(page).toHaveURL(/\/login\?callbackUrl=/);
  await page.getByLabel("Work email").fill(merchant.email);
  await page.getByRole("button", { name: "Email me a sign-in link" }).click();
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();
  await openMailboxLink(page, merchant.email);
  await expect(page).toHaveURL(/\/agent\/setup$/);

  // The page asks for the code and shows nothing about the setup before it is typed.
  await expect(page.getByRole("heading", { name: "Connect an agent" })).toBeVisible();
  await expect(page.getByText("E2E agent")).toHaveCount(0);
  await expect(page.locator("body")).not.toContainText(setup.userCode);
  // A link carrying the code fills nothing in.
  await page.goto(`/agent/setup?code=${setup.userCode}`);
  await expect(page.getByLabel("Code from your agent")).toHaveValue("");
  await expect(page.getByText("E2E agent")).toHaveCount(0);

  // A wrong code is refused; the right one shows who asks, from where, since when, for what.
  await page.getByLabel("Code from your agent").fill("BBBB-BBBB");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "No such agent setup" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Approve" })).toHaveCount(0);
  await page.getByLabel("Code from your agent").fill(setup.userCode.toLowerCase());
  await page.getByRole("button", { name: "Continue" }).click();
  const details = page.getByTestId("agent-setup-details");
  await expect(details).toContainText("E2E agent");
  await expect(details).toContainText(/127\.0\.0\.1|::1/);
  await expect(details).toContainText(/ago/);
  await expect(details).toContainText("Read and write");
  await expect(page.getByText("E2E Store")).toBeVisible();
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("status")).toContainText("Approved");

  expect((await (await request.get("/api/agent/setup/status", { headers: setupAuth })).json()).status).toBe(
    "approved",
  );
  const checkedIn = await request.post("/api/agent/setup/checkin", { headers: checkinAuth });
  expect(checkedIn.status()).toBe(200);
  const { credential, organization } = await checkedIn.json();
  expect(credential).toMatch(/^sk_agent_/);
  expect(organization.id).toBe(merchant.organizationId);
  expect((await request.post("/api/agent/setup/checkin", { headers: checkinAuth })).status()).toBe(410);

  // The owner is told an agent credential exists, with a link to revoke it.
  await page.goto(mailboxPath());
  const notice = page
    .getByTestId("dev-email")
    .filter({ hasText: "An agent was connected to E2E Store" })
    .first();
  await expect(notice).toContainText(`To: ${merchant.email}`);
  await expect(notice).toContainText("/dashboard/agents");

  const agentAuth = { authorization: `Bearer ${credential}` };
  const current = await request.get("/api/private/organization/current", { headers: agentAuth });
  expect(current.status()).toBe(200);
  expect((await current.json()).data.id).toBe(merchant.organizationId);

  // The dashboard lists the agent (never a key) and its owner can cut it off.
  await page.goto("/dashboard/agents");
  const row = page.getByRole("row").filter({ hasText: "E2E agent" });
  await expect(row).toContainText("Read and write");
  await expect(page.getByText(merchant.apiKey)).toHaveCount(0);
  await expect(page.locator("body")).not.toContainText("sk_live_");
  await row.getByRole("button", { name: "Revoke" }).click();
  await page.getByRole("button", { name: "Yes, revoke" }).click();
  await expect(row).toContainText("Revoked");
  expect((await request.get("/api/private/organization/current", { headers: agentAuth })).status()).toBe(401);
});

test("agent signup: register, confirm from the mailbox, collect the credential, create a paylink", async ({
  page,
  request,
}) => {
  const input = {
    email: `agent-${Date.now()}@coffee.example`,
    projectName: "E2E Coffee",
    agentName: "Signup agent",
    integrationIntent: "accept_payments",
  };
  const first = await request.post("/api/auth/agent/register", { data: input });
  expect(first.status()).toBe(202);
  const { checkinToken, pairingCode } = await first.json();
  expect(pairingCode).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
  expect(
    (await request.post("/api/auth/agent/register", { data: { ...input, checkinToken } })).status(),
  ).toBe(202);

  await openMailboxLink(page, input.email);
  await expect(page.getByRole("heading", { name: "Confirm your account" })).toBeVisible();
  await expect(page.getByText("E2E Coffee")).toBeVisible();
  // The emailed link alone confirms nothing: the pairing code the agent printed is asked for.
  await page.getByLabel("Pairing code from your agent").fill("BBBB-BBBB");
  await page.getByRole("button", { name: "Confirm and open the dashboard" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "not the pairing code" })).toBeVisible();
  expect(
    (await request.post("/api/auth/agent/register", { data: { ...input, checkinToken } })).status(),
  ).toBe(202);
  await page.getByLabel("Pairing code from your agent").fill(pairingCode);
  await page.getByRole("button", { name: "Confirm and open the dashboard" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText("E2E Coffee").first()).toBeVisible();

  const collected = await request.post("/api/auth/agent/register", { data: { ...input, checkinToken } });
  expect(collected.status()).toBe(200);
  const { credential, organization } = await collected.json();
  expect(organization.name).toBe("E2E Coffee");

  const paylink = await request.post("/api/private/paylinks/create", {
    headers: { authorization: `Bearer ${credential}` },
    data: { name: "Espresso", amount: "3.50", currency: "USD" },
  });
  expect(paylink.ok()).toBe(true);
  await page.goto("/dashboard/paylinks");
  await expect(page.getByText("Espresso")).toBeVisible();
  await page.goto("/dashboard/agents");
  await expect(page.getByRole("row").filter({ hasText: "Signup agent" })).toBeVisible();
});
