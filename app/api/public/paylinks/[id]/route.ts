import { db } from "@/lib/db/client";
import { publicApiRoute } from "@/lib/http/route";
import { getPublicPaylink } from "@/lib/paylinks/get-public-paylink";
import { serializePublicPaylink } from "@/lib/paylinks/serialize-paylink";

export const GET = publicApiRoute<{ id: string }>(async ({ params }) => ({
  body: serializePublicPaylink(await getPublicPaylink(db(), params.id)),
}));
