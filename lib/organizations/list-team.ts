import type { Db } from "../db/client";

/**
 * The organization's members (oldest first, with their email, how many live agent credentials and
 * connected apps each approved and pending invitations each sent: removing them revokes and
 * withdraws those; and the live API keys each created, which the removal may revoke) and its
 * pending invitations.
 */
export async function listTeam(database: Db, organizationId: string) {
  const [members, invitations, agents, apps, apiKeys] = await Promise.all([
    database.membership.findMany({
      where: { organizationId },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      select: { id: true, role: true, createdAt: true, user: { select: { id: true, email: true } } },
    }),
    database.invitation.findMany({
      where: { organizationId },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      select: { id: true, email: true, role: true, createdAt: true, invitedByUserId: true },
    }),
    database.agentCredential.groupBy({
      by: ["createdByUserId"],
      where: { organizationId, revokedAt: null },
      _count: { _all: true },
    }),
    database.oAuthGrant.groupBy({
      by: ["userId"],
      where: { organizationId, revokedAt: null, codeUsedAt: { not: null } },
      _count: { _all: true },
    }),
    database.apiKey.findMany({
      where: { organizationId, revokedAt: null, createdByUserId: { not: null } },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      select: { name: true, prefix: true, createdByUserId: true },
    }),
  ]);
  const agentsBy = new Map(agents.map((row) => [row.createdByUserId, row._count._all]));
  const appsBy = new Map(apps.map((row) => [row.userId, row._count._all]));
  return {
    members: members.map((member) => ({
      ...member,
      approved: {
        agents: agentsBy.get(member.user.id) ?? 0,
        apps: appsBy.get(member.user.id) ?? 0,
        invitations: invitations.filter((invitation) => invitation.invitedByUserId === member.user.id).length,
      },
      apiKeys: apiKeys
        .filter((key) => key.createdByUserId === member.user.id)
        .map(({ name, prefix }) => ({ name, prefix })),
    })),
    invitations,
  };
}
