import type { Db } from "../db/client";

/** The organization's agent credentials for the dashboard: names, access and dates, never a secret. */
export async function listAgentCredentials(database: Db, organizationId: string) {
  const credentials = await database.agentCredential.findMany({
    where: { organizationId },
    orderBy: { createdAt: "desc" },
    include: { createdBy: { select: { email: true } } },
  });
  return credentials.map((credential) => ({
    id: credential.id,
    agentName: credential.agentName,
    prefix: credential.prefix,
    access: credential.access === "READ" ? ("read" as const) : ("write" as const),
    status: credential.revokedAt ? ("revoked" as const) : ("active" as const),
    createdBy: credential.createdBy?.email ?? null,
    createdAt: credential.createdAt.toISOString(),
    lastUsedAt: credential.lastUsedAt?.toISOString() ?? null,
    revokedAt: credential.revokedAt?.toISOString() ?? null,
  }));
}
