import { actorOf } from "@/lib/authority/authorize";
import { db } from "@/lib/db/client";
import { apiKeyRoute } from "@/lib/http/route";
import { getRefund } from "@/lib/refunds/get-refund";
import { serializeRefund } from "@/lib/refunds/serialize-refund";

export const GET = apiKeyRoute<{ id: string }>(
  "refunds.read",
  async ({ organizationId, params, caller }) => ({
    body: serializeRefund(await getRefund(db(), organizationId, params.id), actorOf(caller)),
  }),
);
