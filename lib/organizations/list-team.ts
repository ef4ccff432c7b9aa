import type { Db } from "../db/client";

/**
 * The organization's members (oldest first, with their email and how many live agent credentials
 * and connected apps each approved: removing them revokes those) and its pending invitations.
 */
export async function listTeam(database: Db, organizationId: string) {
  const [members, invitations, agents, apps] = await Promise.all([
    database.membership.findMany({
      where: { organizationId },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      select: { id: true, role: true, createdAt: true, user: { select: { id: true, email: true } } },
    }),
    database.invitation.findMany({
      where: { organizationId },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      select: { id: true, email: true, role: true, createdAt: true },
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
  ]);
  const agentsBy = new Map(agents.map((row) => [row.createdByUserId, row._count._all]));
  const appsBy = new Map(apps.map((row) => [row.userId, row._count._all]));
  return {
    members: members.map((member) => ({
      ...member,
      approved: { agents: agentsBy.get(member.user.id) ?? 0, apps: appsBy.get(member.user.id) ?? 0 },
    })),
    invitations,
  };
}
