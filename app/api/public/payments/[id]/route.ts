import { db } from "@/lib/db/client";
import { publicApiRoute } from "@/lib/http/route";
import { getPublicPayment } from "@/lib/payments/get-public-payment";
import { serializePublicPayment } from "@/lib/payments/serialize-public-payment";

export const GET = publicApiRoute<{ id: string }>(async ({ params }) => ({
  body: serializePublicPayment(await getPublicPayment(db(), params.id)),
}));
