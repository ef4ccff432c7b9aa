import { announceCredentialChange } from "../credential-cache/announce-credential-change";
import type { Db } from "../db/client";
import { invalidRequest, notFound } from "../errors";

/**
 * Removes a member; an organization always keeps at least one owner. What the member approved
 * ends with their authority, in the same transaction: the agent credentials they approved and the
 * apps they connected over OAuth are revoked, and the invitations they sent that are still pending
 * are withdrawn. The API keys they created are the organization's (its servers may run on them),
 * so they are revoked only when the remover asks (`revokeApiKeys`, offered in the dashboard's
 * confirmation, which lists them). Every instance forgets revoked credentials before this
 * returns, so each is refused on its next request.
 */
export async function removeMember(
  database: Db,
  organizationId: string,
  membershipId: string,
  options: { revokeApiKeys?: boolean } = {},
) {
  const removed = await database.$transaction(async (tx) => {
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
    const now = new Date();
    const approvedBy = { organizationId, revokedAt: null };
    await tx.agentCredential.updateMany({
      where: { ...approvedBy, createdByUserId: membership.userId },
      data: { revokedAt: now },
    });
    await tx.oAuthGrant.updateMany({
      where: { ...approvedBy, userId: membership.userId },
      data: { revokedAt: now },
    });
    await tx.invitation.deleteMany({ where: { organizationId, invitedByUserId: membership.userId } });
    if (options.revokeApiKeys)
      await tx.apiKey.updateMany({
        where: { ...approvedBy, createdByUserId: membership.userId },
        data: { revokedAt: now },
      });
    return membership;
  });
  await announceCredentialChange();
  return removed;
}
