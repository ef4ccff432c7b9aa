import type { Db } from "../db/client";
import { invalidRequest, notFound } from "../errors";

/** Removes a member; an organization always keeps at least one owner. */
export async function removeMember(database: Db, organizationId: string, membershipId: string) {
  return database.$transaction(async (tx) => {
    // Locking the owners' rows makes two owners removing each other at once take turns, so the
    // second sees the first's removal and the organization is never left without an owner.
    const owners = await tx.$queryRaw<{ id: string }[]>`
      SELECT "id" FROM "Membership"
      WHERE "organizationId" = ${organizationId} AND "role" = 'OWNER'
      FOR UPDATE`;
    const membership = await tx.membership.findFirst({ where: { id: membershipId, organizationId } });
    if (!membership) throw notFound("member", "membershipId");
    if (membership.role === "OWNER" && owners.length <= 1) {
      throw invalidRequest(
        "last_owner",
        "An organization must keep at least one owner. Invite another owner before removing this one.",
        "membershipId",
      );
    }
    await tx.membership.delete({ where: { id: membership.id } });
    return membership;
  });
}
