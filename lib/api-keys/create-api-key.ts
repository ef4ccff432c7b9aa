import { generateCredential } from "../crypto/tokens";
import type { Db, Tx } from "../db/client";
import { newId } from "../ids";
import { apiKeyPrefix } from "./api-key-secret";

/**
 * Creates a key for the organization. The secret is in the result and nowhere else, ever.
 * `createdByUserId`: the owner who made it (listed when that owner is removed).
 */
export async function createApiKey(
  database: Db | Tx,
  input: { organizationId: string; name?: string; createdByUserId?: string },
) {
  const { secret, hash, prefix } = generateCredential(apiKeyPrefix);
  const apiKey = await database.apiKey.create({
    data: {
      id: newId("apiKey"),
      organizationId: input.organizationId,
      name: input.name ?? "Default",
      createdByUserId: input.createdByUserId ?? null,
      hash,
      prefix,
    },
  });
  return { apiKey, secret };
}
