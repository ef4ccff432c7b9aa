import { describe, expect, it } from "vitest";
import { createTestOrganization } from "@/scripts/test-support/fixtures";
import { db } from "../db/client";
import type { MembershipRole } from "../generated/prisma/client";
import { newId, randomBase62 } from "../ids";
import { cancelInvitation } from "./cancel-invitation";
import { removeMember } from "./remove-member";

// A removal is announced to the owners who stay.
process.env.SERVICE_DEV_MAILBOX = "true";

async function addMember(organizationId: string, role: MembershipRole) {
  const user = await db().user.create({
    data: { id: newId("user"), email: `member-${randomBase62(8).toLowerCase()}@team.example` },
  });
  return db().membership.create({
    data: { id: newId("membership"), organizationId, userId: user.id, role },
  });
}

const ownerOf = (organizationId: string) =>
  db().membership.findFirstOrThrow({ where: { organizationId, role: "OWNER" } });

const failure = (work: Promise<unknown>) => work.then(() => null).catch((error: unknown) => error);

describe("removeMember", () => {
  it.each<[string, (org: string, other: string) => Promise<string>, object | null]>([
    ["a member", async (org) => (await addMember(org, "MEMBER")).id, null],
    ["one of two owners", async (org) => (await addMember(org, "OWNER")).id, null],
    [
      "the last owner",
      async (org) => {
        await addMember(org, "MEMBER");
        return (await ownerOf(org)).id;
      },
      { status: 400, code: "last_owner", param: "membershipId" },
    ],
    [
      "a member of another organization",
      async (_org, other) => (await addMember(other, "MEMBER")).id,
      { status: 404, code: "resource_missing", param: "membershipId" },
    ],
    ["an unknown id", async () => newId("membership"), { status: 404, code: "resource_missing" }],
  ])("removing %s", async (_case, pick, expectedError) => {
    const { organization } = await createTestOrganization();
    const other = await createTestOrganization("Other Store");
    const membershipId = await pick(organization.id, other.organization.id);
    const before = await db().membership.count();

    const error = await failure(removeMember(db(), organization.id, membershipId));

    if (expectedError) {
      expect(error).toMatchObject(expectedError);
      expect(await db().membership.count()).toBe(before);
    } else {
      expect(error).toBeNull();
      expect(await db().membership.findUnique({ where: { id: membershipId } })).toBeNull();
      expect(await db().membership.count()).toBe(before - 1);
    }
  });

  it("the last owner's message says why", async () => {
    const { organization } = await createTestOrganization();
    const error = await failure(removeMember(db(), organization.id, (await ownerOf(organization.id)).id));
    expect((error as Error).message).toBe(
      "An organization must keep at least one owner. Invite another owner before removing this one.",
    );
  });

  it("two owners removing each other at once leave one owner", async () => {
    const { organization } = await createTestOrganization();
    const first = await ownerOf(organization.id);
    const second = await addMember(organization.id, "OWNER");

    const results = await Promise.allSettled([
      removeMember(db(), organization.id, first.id),
      removeMember(db(), organization.id, second.id),
    ]);

    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(results.find((r) => r.status === "rejected")).toMatchObject({
      reason: { code: "last_owner" },
    });
    expect(await db().membership.count({ where: { organizationId: organization.id, role: "OWNER" } })).toBe(
      1,
    );
  });
});

describe("cancelInvitation", () => {
  it.each([
    ["its own invitation", true],
    ["another organization's invitation", false],
  ])("cancelling %s", async (_case, own) => {
    const { organization } = await createTestOrganization();
    const other = await createTestOrganization("Other Store");
    const invitation = await db().invitation.create({
      data: {
        id: newId("invitation"),
        organizationId: own ? organization.id : other.organization.id,
        email: `invited-${randomBase62(8).toLowerCase()}@team.example`,
      },
    });

    const error = await failure(cancelInvitation(db(), organization.id, invitation.id));

    const left = await db().invitation.findUnique({ where: { id: invitation.id } });
    if (own) {
      expect(error).toBeNull();
      expect(left).toBeNull();
    } else {
      expect(error).toMatchObject({ status: 404, code: "resource_missing", param: "invitationId" });
      expect(left).not.toBeNull();
    }
  });
});
