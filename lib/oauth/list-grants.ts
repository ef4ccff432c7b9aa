import type { Db } from "../db/client";

/** The organization's connected apps: grants that were redeemed and are not revoked. */
export function listGrants(database: Db, organizationId: string) {
  return database.oAuthGrant.findMany({
    where: { organizationId, revokedAt: null, codeUsedAt: { not: null } },
    orderBy: { createdAt: "desc" },
    take: 200,
    select: {
      id: true,
      scope: true,
      createdAt: true,
      lastUsedAt: true,
      client: { select: { id: true, name: true } },
      user: { select: { email: true } },
    },
  });
}
