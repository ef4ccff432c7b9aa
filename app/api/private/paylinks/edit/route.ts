import { db } from "@/lib/db/client";
import { readJson } from "@/lib/http/read-json";
import { apiKeyRoute } from "@/lib/http/route";
import { editPaylink } from "@/lib/paylinks/edit-paylink";
import { editPaylinkSchema } from "@/lib/paylinks/paylink-schemas";
import { serializePaylink } from "@/lib/paylinks/serialize-paylink";

export const POST = apiKeyRoute("paylinks.write", async ({ request, organizationId }) => ({
  body: serializePaylink(await editPaylink(db(), organizationId, await readJson(request, editPaylinkSchema))),
}));
