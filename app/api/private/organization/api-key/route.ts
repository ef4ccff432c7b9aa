import { getApiKeyStatus } from "@/lib/api-keys/get-api-key-status";
import { db } from "@/lib/db/client";
import { apiKeyRoute } from "@/lib/http/route";

export const GET = apiKeyRoute(async ({ organizationId }) => ({
  body: await getApiKeyStatus(db(), organizationId),
}));
