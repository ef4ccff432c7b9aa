import { getApiKeyStatus } from "@/lib/api-keys/get-api-key-status";
import { db } from "@/lib/db/client";
import { apiKeyOrMemberRoute } from "@/lib/http/route";

export const GET = apiKeyOrMemberRoute("apiKeys.read", async ({ organizationId }) => ({
  body: await getApiKeyStatus(db(), organizationId),
}));
