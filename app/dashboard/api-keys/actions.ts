"use server";

import { createApiKeySchema, revokeApiKeySchema } from "@/lib/api-keys/api-key-schemas";
import { createApiKey } from "@/lib/api-keys/create-api-key";
import { revokeApiKey } from "@/lib/api-keys/revoke-api-key";
import { db } from "@/lib/db/client";
import { memberAction } from "@/lib/http/dashboard-session";

// The secret goes back to the owner's browser this once and is stored nowhere.
export const createApiKeyAction = memberAction(
  "apiKeys.create",
  createApiKeySchema,
  async (member, input) => {
    const { apiKey, secret } = await createApiKey(db(), {
      organizationId: member.organization.id,
      createdByUserId: member.user.id,
      ...input,
    });
    return { id: apiKey.id, name: apiKey.name, secret };
  },
);

export const revokeApiKeyAction = memberAction(
  "apiKeys.manage",
  revokeApiKeySchema,
  async (member, input) => {
    const key = await revokeApiKey(db(), { organizationId: member.organization.id, ...input });
    return { id: key.id };
  },
);
