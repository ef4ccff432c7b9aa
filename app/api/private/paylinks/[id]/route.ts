import { db } from "@/lib/db/client";
import { apiKeyRoute } from "@/lib/http/route";
import { getPaylink } from "@/lib/paylinks/get-paylink";
import { serializePaylink } from "@/lib/paylinks/serialize-paylink";

export const GET = apiKeyRoute<{ id: string }>("paylinks.read", async ({ organizationId, params }) => ({
  body: serializePaylink(await getPaylink(db(), organizationId, params.id)),
}));
