import { config } from "../config";
import { announceCredentialChange } from "../credential-cache/announce-credential-change";
import type { Db, Tx } from "../db/client";
import { invalidRequest, notFound } from "../errors";
import { sendOutboundEmailsNow } from "../outbox/deliver-outbound-emails";
import { emailOwners } from "./email-owners";

/**
 * Removes a member; an organization always keeps at least one owner. What the member created or
 * approved ends with their authority, in the same transaction: the API keys they created, the agent
 * credentials they approved and the apps they connected over OAuth are revoked, and the invitations
 * they sent that are still pending are withdrawn. A key may run the organization's servers, so the
 * remover may keep the keys working (`keepApiKeys`, offered in the dashboard's confirmation, which
 * lists them); by default a departed member keeps no key. Every instance forgets revoked
 * credentials before this returns, so each is refused on its next request, and the owners who stay
 * are told by email what the removal ended (recorded in its transaction, sent once it committed).
 */
export async function removeMember(
  database: Db,
  organizationId: string,
  membershipId: string,
  options: { keepApiKeys?: boolean } = {},
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
    const agents = await tx.agentCredential.updateMany({
      where: { ...approvedBy, createdByUserId: membership.userId },
      data: { revokedAt: now },
    });
    const apps = await tx.oAuthGrant.updateMany({
      where: { ...approvedBy, userId: membership.userId },
      data: { revokedAt: now },
    });
    const invitations = await tx.invitation.deleteMany({
      where: { organizationId, invitedByUserId: membership.userId },
    });
    const keys = options.keepApiKeys
      ? { count: 0 }
      : await tx.apiKey.updateMany({
          where: { ...approvedBy, createdByUserId: membership.userId },
          data: { revokedAt: now },
        });
    const user = await tx.user.findUniqueOrThrow({
      where: { id: membership.userId },
      select: { email: true },
    });
    // What is queued for them and not yet sent (the outbox retries for days) and goes only to
    // owners is withdrawn with them: a monthly report (payers' addresses and amounts) and an
    // owner's notice (amounts, links, other members' addresses). Not a settlement change's
    // announcement: it was an owner's due when the change was asked for, and the change waits
    // until its owners have been told (apply-due-settlement-changes.ts), so a removal must not
    // silence it.
    await tx.outboundEmail.deleteMany({
      where: {
        organizationId,
        kind: { in: ["monthly_report", "owner_notice"] },
        to: user.email,
        sentAt: null,
      },
    });
    const ended = {
      keys: keys.count,
      agents: agents.count,
      apps: apps.count,
      invitations: invitations.count,
    };
    const announced = { email: user.email, ended, keptApiKeys: options.keepApiKeys === true };
    return { membership, emailIds: await announceRemoval(tx, membership.id, organizationId, announced, now) };
  });
  await announceCredentialChange();
  void sendOutboundEmailsNow(database, removed.emailIds, new Date());
  return removed.membership;
}

const counted = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

/** Tells the owners who stay who was removed and what it ended: a removal nobody meant shows. */
async function announceRemoval(
  tx: Tx,
  membershipId: string,
  organizationId: string,
  {
    email,
    ended,
    keptApiKeys,
  }: {
    email: string;
    ended: { keys: number; agents: number; apps: number; invitations: number };
    keptApiKeys: boolean;
  },
  now: Date,
) {
  const { name } = await tx.organization.findUniqueOrThrow({
    where: { id: organizationId },
    select: { name: true },
  });
  return emailOwners(
    tx,
    organizationId,
    {
      aboutId: membershipId,
      subject: `${email} was removed from ${name}`,
      text: [
        `${email} is no longer a member of ${name} on ${config().serviceName}.`,
        "",
        `Revoked: ${counted(ended.keys, "API key")} they created${keptApiKeys ? " (the remover kept their keys working)" : ""}, ${counted(ended.agents, "agent credential")} they approved, ${counted(ended.apps, "connected app")}.`,
        `Withdrawn: ${counted(ended.invitations, "pending invitation")} they sent.`,
        "",
        `If you did not expect this, review the team and the API keys:\n\n${config().baseUrl}/dashboard/settings`,
      ].join("\n"),
    },
    now,
  );
}
