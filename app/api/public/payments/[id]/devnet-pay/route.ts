import { db } from "@/lib/db/client";
import { readJson } from "@/lib/http/read-json";
import { publicApiRoute } from "@/lib/http/route";
import { payInvoiceOnDevnet } from "@/lib/payments/pay-invoice-on-devnet";
import { devnetPaySchema } from "@/lib/payments/payment-schemas";
import { serializeDevnetPayment } from "@/lib/payments/serialize-devnet-payment";

export const POST = publicApiRoute<{ id: string }>(async ({ request, params }) => ({
  body: serializeDevnetPayment(
    await payInvoiceOnDevnet(db(), params.id, await readJson(request, devnetPaySchema)),
  ),
}));
