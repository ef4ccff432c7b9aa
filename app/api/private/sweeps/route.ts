import { db } from "@/lib/db/client";
import { readQuery } from "@/lib/http/read-query";
import { apiKeyRoute } from "@/lib/http/route";
import { listSweeps, sweepListQuery } from "@/lib/sweeps/list-sweeps";
import { serializeSweep } from "@/lib/sweeps/serialize-sweep";
import { listPage } from "@/lib/validation/list-page";

export const GET = apiKeyRoute("sweeps.read", async ({ request, organizationId }) => {
  const query = readQuery(request, sweepListQuery);
  const { sweeps, total } = await listSweeps(db(), organizationId, query);
  return { body: listPage(sweeps.map(serializeSweep), query, total) };
});
