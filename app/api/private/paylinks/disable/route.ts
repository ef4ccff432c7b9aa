import { db } from "@/lib/db/client";
import { readJson } from "@/lib/http/read-json";
import { apiKeyRoute } from "@/lib/http/route";
import { disablePaylink } from "@/lib/paylinks/disable-paylink";
import { disablePaylinkSchema } from "@/lib/paylinks/paylink-schemas";
import { serializePaylink } from "@/lib/paylinks/serialize-paylink";

export const POST = apiKeyRoute("paylinks.write", async ({ request, organizationId }) => ({
  body: serializePaylink(
    await disablePaylink(db(), organizationId, await readJson(request, disablePaylinkSchema)),
  ),
}));
