// Invitations are emailed; the tests read them from the development mailbox.
process.env.SERVICE_DEV_MAILBOX = "true";
// Small email budgets, read from configuration on first use in this file's process.
process.env.SERVICE_RATE_LIMIT_EMAILS_PER_ORGANIZATION_PER_HOUR = "3";
process.env.SERVICE_RATE_LIMIT_EMAILS_PER_ADDRESS_PER_HOUR = "2";

import { describe, expect, it } from "vitest";
import { createTestOrganization } from "@/scripts/test-support/fixtures";
import { createUserWithOrganization } from "../auth/create-user-with-organization";
import { db } from "../db/client";
import { ServiceError } from "../errors";
import { randomBase62 } from "../ids";
import { inviteMember } from "./invite-member";
import { inviteMemberSchema } from "./team-schemas";

const uniqueEmail = (label: string) => `${label}-${randomBase62(8).toLowerCase()}@team.example`;

async function invite(
  organizationId: string,
  form: Record<string, string>,
  clientAddress = `198.51.100.${Math.floor(Math.random() * 250)}`,
) {
  return inviteMember(db(), organizationId, {
    ...inviteMemberSchema.parse(form),
    invitedBy: "owner@shop.example",
    invitedByUserId: (await db().membership.findFirstOrThrow({ where: { organizationId, role: "OWNER" } }))
      .userId,
    clientAddress,
  });
}

const emailsTo = (to: string) => db().devEmail.findMany({ where: { to }, orderBy: { createdAt: "asc" } });

describe("inviteMember", () => {
  it.each<[string, { existingUser: boolean; role?: string; typed?: (email: string) => string }]>([
    ["a new email as a member", { existingUser: false }],
    ["a new email as an owner", { existingUser: false, role: "OWNER" }],
    [
      "a new email typed with capitals and spaces",
      { existingUser: false, typed: (e) => ` ${e.toUpperCase()} ` },
    ],
    ["an existing user as a member", { existingUser: true }],
    ["an existing user as an owner", { existingUser: true, role: "OWNER" }],
  ])("invites %s", async (_case, { existingUser, role, typed }) => {
    const { organization } = await createTestOrganization("Inviting Store");
    const email = uniqueEmail("invitee");
    if (existingUser) await createUserWithOrganization(db(), { email });
    const expectedRole = role ?? "MEMBER";

    const result = await invite(organization.id, {
      email: typed ? typed(email) : email,
      ...(role ? { role } : {}),
    });

    const user = await db().user.findUnique({ where: { email } });
    const membership = user
      ? await db().membership.findUnique({
          where: { organizationId_userId: { organizationId: organization.id, userId: user.id } },
        })
      : null;
    const invitation = await db().invitation.findUnique({
      where: { organizationId_email: { organizationId: organization.id, email } },
    });
    const emails = await emailsTo(email);
    if (existingUser) {
      // A user with an account is a member at once: nothing to accept, nothing to email.
      expect(result.kind).toBe("member");
      expect(membership?.role).toBe(expectedRole);
      expect(invitation).toBeNull();
      expect(emails).toHaveLength(0);
    } else {
      expect(result.kind).toBe("invitation");
      expect(user).toBeNull();
      expect(invitation?.role).toBe(expectedRole);
      expect(emails).toHaveLength(1);
      expect(emails[0].subject).toBe("owner@shop.example invited you to Inviting Store on Crypto Checkout");
      expect(emails[0].text).toContain("http://localhost:3000/login");
      expect(emails[0].text).toContain(email);
    }
  });

  it("turns the invitation into a membership with its role at the first sign-in", async () => {
    const { organization } = await createTestOrganization();
    const email = uniqueEmail("first");
    await invite(organization.id, { email, role: "OWNER" });

    const user = await createUserWithOrganization(db(), { email });

    const memberships = await db().membership.findMany({ where: { userId: user.id } });
    expect(memberships.map((m) => [m.organizationId, m.role])).toEqual([[organization.id, "OWNER"]]);
    expect(await db().invitation.count({ where: { email } })).toBe(0);
  });

  it("re-inviting a pending email updates the role and emails again", async () => {
    const { organization } = await createTestOrganization();
    const email = uniqueEmail("again");
    await invite(organization.id, { email });
    await invite(organization.id, { email, role: "OWNER" });

    const invitations = await db().invitation.findMany({ where: { email } });
    expect(invitations.map((i) => i.role)).toEqual(["OWNER"]);
    expect(await emailsTo(email)).toHaveLength(2);
  });

  it("refuses someone who is already a member, and changes nothing", async () => {
    const { organization } = await createTestOrganization();
    const owner = await db().membership.findFirstOrThrow({
      where: { organizationId: organization.id },
      include: { user: true },
    });
    const error = await invite(organization.id, { email: owner.user.email }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect(error).toMatchObject({ status: 400, code: "already_member", param: "email" });
    expect(await db().membership.count({ where: { organizationId: organization.id } })).toBe(1);
  });

  it("invites into one organization only", async () => {
    const first = await createTestOrganization();
    const second = await createTestOrganization();
    const email = uniqueEmail("scoped");
    await invite(first.organization.id, { email });
    expect(await db().invitation.count({ where: { organizationId: second.organization.id } })).toBe(0);
  });

  it("limits invitation emails per organization and per address, changing nothing when over", async () => {
    const { organization } = await createTestOrganization();
    const emails = [1, 2, 3, 4].map((n) => uniqueEmail(`batch${n}`));
    const outcomes = [];
    for (const email of emails)
      outcomes.push(
        await invite(organization.id, { email }).then(
          () => 200,
          (e: ServiceError) => e.status,
        ),
      );
    expect(outcomes).toEqual([200, 200, 200, 429]);
    expect(await db().invitation.count({ where: { email: emails[3] } })).toBe(0);
    expect(await emailsTo(emails[3])).toHaveLength(0);

    // One address, invited by two organizations: its own budget runs out too.
    const target = uniqueEmail("popular");
    const others = await Promise.all([1, 2, 3].map(() => createTestOrganization()));
    const perAddress = [];
    for (const other of others)
      perAddress.push(
        await invite(other.organization.id, { email: target }).then(
          () => 200,
          (e: ServiceError) => e.status,
        ),
      );
    expect(perAddress).toEqual([200, 200, 429]);
    expect(await emailsTo(target)).toHaveLength(2);
  });

  it.each([
    ["not an email", { email: "someone" }, "email"],
    ["a list of emails", { email: "a@x.com,b@y.com" }, "email"],
    ["an unknown role", { email: "a@b.example", role: "ADMIN" }, "role"],
  ])("rejects %s", (_case, form, param) => {
    const parsed = inviteMemberSchema.safeParse(form);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0].path).toEqual([param]);
  });
});
