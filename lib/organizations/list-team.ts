import type { Db } from "../db/client";

/** The organization's members (oldest first, with their email) and its pending invitations. */
export async function listTeam(database: Db, organizationId: string) {
  const [members, invitations] = await Promise.all([
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
  ]);
  return { members, invitations };
}
