import { db } from "@/lib/db/client";
import { readJson } from "@/lib/http/read-json";
import { publicApiRoute } from "@/lib/http/route";
import { startPaymentSchema } from "@/lib/payments/payment-schemas";
import { serializePublicPayment } from "@/lib/payments/serialize-public-payment";
import { startPayment } from "@/lib/payments/start-payment";

export const POST = publicApiRoute(async ({ request }) => {
  const invoice = await startPayment(db(), await readJson(request, startPaymentSchema));
  return { status: 201, body: serializePublicPayment({ ...invoice, payments: [] }) };
});
