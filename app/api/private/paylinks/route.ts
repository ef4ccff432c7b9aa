import { db } from "@/lib/db/client";
import { readQuery } from "@/lib/http/read-query";
import { apiKeyRoute } from "@/lib/http/route";
import { listPaylinks } from "@/lib/paylinks/list-paylinks";
import { listPaylinksQuery } from "@/lib/paylinks/paylink-schemas";
import { serializePaylink } from "@/lib/paylinks/serialize-paylink";
import { listPage } from "@/lib/validation/list-page";

export const GET = apiKeyRoute("paylinks.read", async ({ request, organizationId }) => {
  const paging = readQuery(request, listPaylinksQuery);
  const { paylinks, total } = await listPaylinks(db(), organizationId, paging);
  return { body: listPage(paylinks.map(serializePaylink), paging, total) };
});
