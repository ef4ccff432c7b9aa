import { createHash, randomBytes } from "node:crypto";
import { getAddress } from "viem";
import { appSql, expect, mailboxPath, openMailboxLink, test } from "./fixtures";

// Where money goes is an owner's decision: an agent's wallet change is a proposal that an owner
// confirms or rejects in the dashboard, after a sign-in within the last 10 minutes.

/** An agent credential of the organization, written as check-in issues one (only its hash is stored). */
async function agentCredential(organizationId: string) {
  const secret = `sk_agent_${randomBytes(30).toString("base64url").replace(/[-_]/g, "A").slice(0, 40)}`;
  await appSql(
    // Approved by the organization's owner: a credential no owner approved is refused.
    `INSERT INTO "AgentCredential" ("id", "organizationId", "agentName", "access", "prefix", "hash", "createdByUserId")
     VALUES ($1, $2, 'E2E agent', 'WRITE', $3, $4,
             (SELECT "userId" FROM "Membership" WHERE "organizationId" = $2 AND "role" = 'OWNER' LIMIT 1))`,
    [
      `agc_${randomBytes(12).toString("hex")}`,
      organizationId,
      secret.slice(0, 13),
      createHash("sha256").update(secret).digest("hex"),
    ],
  );
  return { authorization: `Bearer ${secret}` };
}

test("an owner confirms one agent proposal and rejects another; an old sign-in must sign in again first", async ({
  dashboard: page,
  merchant,
  request,
}) => {
  test.setTimeout(120_000);
  const agent = await agentCredential(merchant.organizationId);
  const propose = async (address: string) => {
    const response = await request.put("/api/private/organization/current", {
      headers: agent,
      data: { settlementWallets: [{ network: "devnet", address }] },
    });
    expect(response.status()).toBe(200);
    const body = (await response.json()).data as {
      settlementWallets: unknown[];
      pendingSettlementWallets: { id: string; address: string; status: string }[];
    };
    const pending = body.pendingSettlementWallets.find((change) => change.address === address);
    expect(pending?.status).toBe("proposed");
    return { inForce: body.settlementWallets, id: pending?.id as string };
  };

  const first = getAddress("0x000000000000000000000000000000000000c0f1");
  const proposal = await propose(first);
  expect(proposal.inForce).toEqual([]);
  // The owner was told, with the page to decide on.
  await page.goto(mailboxPath());
  await expect(
    page.getByTestId("dev-email").filter({ hasText: `/dashboard/settlement/changes/${proposal.id}` }),
  ).toContainText("E2E agent");

  await page.goto("/dashboard/settlement");
  await page.getByRole("link", { name: "Review" }).first().click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/settlement/changes/${proposal.id}$`));
  await expect(page.getByText("E2E agent (an agent credential)")).toBeVisible();
  await page.getByRole("button", { name: "Confirm change" }).click();
  await page.getByRole("button", { name: "Yes, confirm" }).click();
  // devnet had no wallet: confirming puts it in force at once.
  await expect(page.getByText("Applied", { exact: true })).toBeVisible();
  const organization = await request.get("/api/private/organization/current", {
    headers: { authorization: `Bearer ${merchant.apiKey}` },
  });
  const confirmed = (await organization.json()).data;
  expect(confirmed.settlementWallets).toEqual([{ network: "devnet", address: first }]);

  const second = await propose(getAddress("0x000000000000000000000000000000000000bad2"));
  await page.goto(`/dashboard/settlement/changes/${second.id}`);
  await page.getByRole("button", { name: "Reject change" }).click();
  await page.getByRole("button", { name: "Yes, reject" }).click();
  await expect(page.getByText("Rejected", { exact: true })).toBeVisible();
  const after = (
    await (
      await request.get("/api/private/organization/current", {
        headers: { authorization: `Bearer ${merchant.apiKey}` },
      })
    ).json()
  ).data;
  expect(after.settlementWallets).toEqual(confirmed.settlementWallets);
  expect(after.pendingSettlementWallets).toEqual([]);

  // A sign-in older than 10 minutes decides nothing until the owner signs in again.
  const third = await propose(getAddress("0x000000000000000000000000000000000000bad3"));
  await appSql(
    `UPDATE "AuthSession" SET "createdAt" = now() - interval '20 minutes'
     WHERE "userId" = (SELECT "id" FROM "User" WHERE "email" = $1)`,
    [merchant.email],
  );
  await page.goto(`/dashboard/settlement/changes/${third.id}`);
  await expect(page.getByRole("button", { name: "Confirm change" })).toHaveCount(0);
  await expect(
    page.getByRole("alert").filter({ hasText: "sign-in within the last 10 minutes" }),
  ).toBeVisible();
  await page.getByRole("link", { name: "Sign in again" }).click();
  await expect(page).toHaveURL(/\/login\?reauth=1/);
  await page.getByLabel("Work email").fill(merchant.email);
  await page.getByRole("button", { name: "Email me a sign-in link" }).click();
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();
  await openMailboxLink(page, merchant.email);
  await expect(page).toHaveURL(new RegExp(`/dashboard/settlement/changes/${third.id}$`));
  await expect(page.getByRole("button", { name: "Reject change" })).toBeVisible();
});
