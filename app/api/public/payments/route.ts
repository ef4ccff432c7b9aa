import { assertCheckoutStartAllowed } from "@/lib/checkout/limit-checkout-starts";
import { startPayment } from "@/lib/checkout/start-payment";
import { db } from "@/lib/db/client";
import { readJson } from "@/lib/http/read-json";
import { publicApiRoute } from "@/lib/http/route";
import { localeCookie, negotiateLocale } from "@/lib/i18n/locales";
import { clientAddress } from "@/lib/net/client-address";
import { startPaymentSchema } from "@/lib/payments/payment-schemas";
import { serializePublicPayment } from "@/lib/payments/serialize-public-payment";

export const POST = publicApiRoute(async ({ request }) => {
  const input = await readJson(request, startPaymentSchema);
  await assertCheckoutStartAllowed({
    clientAddress: clientAddress(request.headers),
    checkoutSessionId: input.checkoutSessionId,
  });
  const locale = negotiateLocale(
    request.headers.get("accept-language"),
    request.cookies.get(localeCookie)?.value,
  );
  const invoice = await startPayment(db(), input, new Date(), locale);
  return { status: 201, body: serializePublicPayment({ ...invoice, payments: [] }) };
});
