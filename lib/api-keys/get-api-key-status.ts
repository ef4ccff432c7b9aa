import { isoTimestamp } from "crypto-checkout-agent/shapes";
import { z } from "zod";
import type { Db } from "../db/client";

export const apiKeyStatusObject = z
  .object({
    object: z.literal("api_key_status"),
    hasActiveKey: z.boolean(),
    keys: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        prefix: z.string().meta({ example: "sk_live_AbCd" }),
        status: z.enum(["active", "revoked"]),
        createdAt: isoTimestamp,
        lastUsedAt: isoTimestamp.nullable(),
        revokedAt: isoTimestamp.nullable(),
      }),
    ),
  })
  .meta({ id: "ApiKeyStatus" });

/** What a caller may know about the organization's keys: prefixes and dates, never a key. */
export async function getApiKeyStatus(
  database: Db,
  organizationId: string,
): Promise<z.output<typeof apiKeyStatusObject>> {
  const keys = await database.apiKey.findMany({
    where: { organizationId },
    orderBy: { createdAt: "desc" },
  });
  return {
    object: "api_key_status",
    hasActiveKey: keys.some((key) => !key.revokedAt),
    keys: keys.map((key) => ({
      id: key.id,
      name: key.name,
      prefix: key.prefix,
      status: key.revokedAt ? "revoked" : "active",
      createdAt: key.createdAt.toISOString(),
      lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
      revokedAt: key.revokedAt?.toISOString() ?? null,
    })),
  };
}
