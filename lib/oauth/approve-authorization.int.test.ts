import { describe, expect, it } from "vitest";
import { createTestOrganization } from "@/scripts/test-support/fixtures";
import { pkcePair, redirectUri, registerTestClient } from "@/scripts/test-support/oauth";
import { db } from "../db/client";
import { approveAuthorization } from "./approve-authorization";
import { mcpResource } from "./oauth-settings";

async function request() {
  const { organization } = await createTestOrganization();
  const owner = await db().membership.findFirstOrThrow({ where: { organizationId: organization.id } });
  return {
    organization,
    approved: {
      clientId: (await registerTestClient()).client_id,
      redirectUri,
      codeChallenge: pkcePair().challenge,
      scope: "read",
      resource: mcpResource(),
      state: "st",
      userId: owner.userId,
      expiresAt: Math.floor(Date.now() / 1000) + 600,
    },
  };
}

describe("approveAuthorization", () => {
  it("stores a grant for the chosen organization with only the code's hash, and redirects with code, state and iss", async () => {
    const { organization, approved } = await request();
    const location = new URL(await approveAuthorization(db(), approved, organization.id, new Date()));
    const code = location.searchParams.get("code") as string;
    expect(code).toMatch(/^cc_ac_[0-9A-Za-z]{43}$/);
    expect(location.searchParams.get("state")).toBe("st");
    expect(location.searchParams.get("iss")).toBe("http://localhost:3000");
    const grant = await db().oAuthGrant.findFirstOrThrow({ where: { organizationId: organization.id } });
    expect(grant).toMatchObject({
      userId: approved.userId,
      scope: "read",
      redirectUri,
      resource: mcpResource(),
    });
    expect(JSON.stringify(grant)).not.toContain(code);
    expect(grant.codeExpiresAt.getTime() - Date.now()).toBeLessThanOrEqual(10 * 60_000);
  });

  const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);
  it.each<[string, "OWNER" | "MEMBER", string, Date | null, number | string]>([
    ["an owner grants read", "OWNER", "read", minutesAgo(1), 303],
    ["an owner grants write", "OWNER", "read write", minutesAgo(1), 303],
    ["a member grants read", "MEMBER", "read", minutesAgo(1), 303],
    // The page offers a member read only; a form that asks for write anyway is refused.
    ["a member cannot grant write", "MEMBER", "read write", minutesAgo(1), "owner_only"],
    // Write access acts for an owner: a stale (perhaps stolen) session must sign in again.
    [
      "an owner signed in 11 minutes ago cannot grant write",
      "OWNER",
      "read write",
      minutesAgo(11),
      "reauthentication_required",
    ],
    [
      "an owner without a known sign-in cannot grant write",
      "OWNER",
      "read write",
      null,
      "reauthentication_required",
    ],
    ["an owner signed in 11 minutes ago grants read", "OWNER", "read", minutesAgo(11), 303],
  ])("%s", async (_case, role, scope, signedInAt, outcome) => {
    const { organization, approved } = await request();
    await db().membership.updateMany({ where: { organizationId: organization.id }, data: { role } });
    const approval = approveAuthorization(db(), { ...approved, scope }, organization.id, signedInAt);
    if (outcome === 303) {
      await approval;
      expect(
        (await db().oAuthGrant.findFirstOrThrow({ where: { organizationId: organization.id } })).scope,
      ).toBe(scope);
    } else {
      await expect(approval).rejects.toMatchObject({ status: 403, code: outcome });
      expect(await db().oAuthGrant.count({ where: { organizationId: organization.id } })).toBe(0);
    }
  });

  it("refuses an organization the user is not a member of, and stores nothing", async () => {
    const { approved } = await request();
    const other = await createTestOrganization("Other Store");
    await expect(
      approveAuthorization(db(), approved, other.organization.id, new Date()),
    ).rejects.toMatchObject({
      status: 403,
      code: "not_a_member",
    });
    expect(await db().oAuthGrant.count({ where: { organizationId: other.organization.id } })).toBe(0);
  });
});
