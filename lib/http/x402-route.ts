import {
  decodePaymentSignatureHeader,
  encodePaymentRequiredHeader,
  encodePaymentResponseHeader,
} from "@x402/core/http";
import { db } from "../db/client";
import { ServiceError } from "../errors";
import { clientAddress, clientLimitKey } from "../net/client-address";
import { consumeRateLimit } from "../rate-limit/rate-limit";
import type { X402ResourceRef } from "../x402/find-x402-resource";
import { quoteX402Payment } from "../x402/quote-x402-payment";
import { serializeX402Payment, x402SettleResponse } from "../x402/serialize-x402-payment";
import { paymentRefused, settleX402Payment } from "../x402/settle-x402-payment";
import type { X402ResourceKind } from "../x402/x402-quote-token";
import { publicApiRoute } from "./route";

// x402 v2 over HTTP (specs/transports-v2/http.md in the x402 repository): a request without
// PAYMENT-SIGNATURE gets 402 and the options in PAYMENT-REQUIRED; with one, the payment is
// settled and answered 200 with PAYMENT-RESPONSE, or refused with 402 and a fresh quote. The
// headers are base64 JSON, encoded and decoded by @x402/core/http.

const noStore = { "Cache-Control": "no-store" };

/** A 402: the reason (if a payment was refused) and a fresh quote, in the header and the body. */
async function paymentRequired(ref: X402ResourceRef, refusal: ServiceError | null): Promise<Response> {
  const offer = await quoteX402Payment(db(), ref, refusal);
  return Response.json(offer.body, {
    status: 402,
    headers: { ...noStore, "PAYMENT-REQUIRED": encodePaymentRequiredHeader(offer.paymentRequired) },
  });
}

function decodePayment(header: string): unknown {
  try {
    return decodePaymentSignatureHeader(header);
  } catch {
    throw paymentRefused("invalid_payment", "PAYMENT-SIGNATURE is not base64-encoded JSON.");
  }
}

/** GET /api/x402/<kind>/{id}: pay a paylink or a checkout session over x402. */
export function x402Route(kind: X402ResourceKind) {
  return publicApiRoute<{ id: string }>(async ({ request, params }) => {
    await consumeRateLimit("x402Client", clientLimitKey(clientAddress(request.headers)));
    const ref = { kind, id: params.id };
    const header = request.headers.get("PAYMENT-SIGNATURE");
    if (!header) return paymentRequired(ref, null);
    try {
      const settled = await settleX402Payment(db(), ref, decodePayment(header));
      return Response.json(serializeX402Payment(settled), {
        headers: { ...noStore, "PAYMENT-RESPONSE": encodePaymentResponseHeader(x402SettleResponse(settled)) },
      });
    } catch (error) {
      if (error instanceof ServiceError && error.status === 402) return paymentRequired(ref, error);
      throw error;
    }
  });
}
