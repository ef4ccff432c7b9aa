import { db } from "@/lib/db/client";
import { readJson } from "@/lib/http/read-json";
import { apiKeyRoute } from "@/lib/http/route";
import { createPaylink } from "@/lib/paylinks/create-paylink";
import { createPaylinkSchema } from "@/lib/paylinks/paylink-schemas";
import { serializePaylink } from "@/lib/paylinks/serialize-paylink";

export const POST = apiKeyRoute("paylinks.write", async ({ request, organizationId }) => ({
  status: 201,
  body: serializePaylink(
    await createPaylink(db(), organizationId, await readJson(request, createPaylinkSchema)),
  ),
}));
