import type { Db } from "../db/client";

/** What a caller may know about the organization's keys: prefixes and dates, never a key. */
export async function getApiKeyStatus(database: Db, organizationId: string) {
  const keys = await database.apiKey.findMany({
    where: { organizationId },
    orderBy: { createdAt: "desc" },
  });
  return {
    object: "api_key_status" as const,
    hasActiveKey: keys.some((key) => !key.revokedAt),
    keys: keys.map((key) => ({
      id: key.id,
      name: key.name,
      prefix: key.prefix,
      status: key.revokedAt ? ("revoked" as const) : ("active" as const),
      createdAt: key.createdAt.toISOString(),
      lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
      revokedAt: key.revokedAt?.toISOString() ?? null,
    })),
  };
}
