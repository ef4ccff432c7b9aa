import { getApiKeyStatus } from "@/lib/api-keys/get-api-key-status";
import { db } from "@/lib/db/client";
import { apiKeyRoute } from "@/lib/http/route";

export const GET = apiKeyRoute(async ({ organization }) => ({
  body: await getApiKeyStatus(db(), organization.id),
}));
