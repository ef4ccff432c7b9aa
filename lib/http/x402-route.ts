import {
  decodePaymentSignatureHeader,
  encodePaymentRequiredHeader,
  encodePaymentResponseHeader,
} from "@x402/core/http";
import type { SettleResponse } from "@x402/core/types";
import { db } from "../db/client";
import { ServiceError } from "../errors";
import { mppChallenges, serializeMppChallenges } from "../mpp/mpp-challenges";
import { paymentProblem } from "../mpp/mpp-problems";
import { mppReceipt, settleMppPayment } from "../mpp/settle-mpp-payment";
import { clientAddress, clientLimitKey } from "../net/client-address";
import { consumeRateLimit } from "../rate-limit/rate-limit";
import type { X402ResourceRef } from "../x402/find-x402-resource";
import { quoteX402Payment } from "../x402/quote-x402-payment";
import { serializeX402Payment, x402SettleResponse } from "../x402/serialize-x402-payment";
import { settleX402Payment } from "../x402/settle-x402-payment";
import { paymentRefused } from "../x402/x402-payment-errors";
import type { X402ResourceKind } from "../x402/x402-quote-token";
import { publicApiRoute } from "./route";

// x402 v2 over HTTP (docs/api.md, "x402"): a request without
// PAYMENT-SIGNATURE gets 402 and the options in PAYMENT-REQUIRED; with one, the payment is
// settled and answered 200 with PAYMENT-RESPONSE, or refused with 402 and a fresh quote. The
// headers are base64 JSON, encoded and decoded by @x402/core/http. The same URL speaks MPP (the
// "Payment" HTTP authentication scheme, lib/mpp/): the 402 also carries its challenges in
// WWW-Authenticate and is an RFC 9457 problem document; `Authorization: Payment <credential>` is
// settled by the same path and answered 200 with Payment-Receipt.

// no-transform as well: nothing between us and the agent rewrites a payment's answer, and the
// server does not gzip these small JSON bodies (Next.js's compression skips no-transform), a
// zlib stream per payment on both sides under load (docs/architecture.md, "Settlement under load").
const noStore = { "Cache-Control": "no-store, no-transform" };

/**
 * A 402: a fresh quote in PAYMENT-REQUIRED and the body; for a refused payment, the reason in the
 * body and, as x402 answers a failed payment, in PAYMENT-RESPONSE (`success: false`).
 */
async function paymentRequired(
  ref: X402ResourceRef,
  refusal: { error: ServiceError; payment: unknown } | null,
): Promise<Response> {
  const offer = await quoteX402Payment(db(), ref, refusal?.error ?? null);
  const challenges = mppChallenges(offer.paymentRequired);
  const headers = new Headers({
    ...noStore,
    "Content-Type": "application/problem+json",
    "PAYMENT-REQUIRED": encodePaymentRequiredHeader(offer.paymentRequired),
  });
  for (const challenge of serializeMppChallenges(challenges)) headers.append("WWW-Authenticate", challenge);
  const failed = refusal && failureResponse(refusal.error, refusal.payment);
  if (failed) headers.set("PAYMENT-RESPONSE", encodePaymentResponseHeader(failed));
  const problem = paymentProblem(
    refusal?.error ?? null,
    offer.paymentRequired.resource.description ?? offer.body.merchantName,
    challenges[0]?.id,
  );
  return Response.json({ ...problem, ...offer.body }, { status: 402, headers });
}

/** The failed settlement response for a payment we could read (its network and payer). */
function failureResponse(error: ServiceError, payment: unknown): SettleResponse | undefined {
  const { accepted, payload } = (payment ?? {}) as {
    accepted?: { network?: unknown };
    payload?: { authorization?: { from?: unknown } };
  };
  const network = accepted?.network;
  const payer = payload?.authorization?.from;
  if (typeof network !== "string" || !/^[a-z0-9-]+:[A-Za-z0-9-]+$/.test(network)) return undefined;
  return {
    success: false,
    errorReason: error.code,
    transaction: "",
    network: network as SettleResponse["network"],
    ...(typeof payer === "string" ? { payer } : {}),
  };
}

function decodePayment(header: string): unknown {
  try {
    return decodePaymentSignatureHeader(header);
  } catch {
    throw paymentRefused("invalid_payment", "PAYMENT-SIGNATURE is not base64-encoded JSON.");
  }
}

/**
 * An MPP credential: `Authorization: Payment …`, or `Payment-Authorization` when Authorization
 * carries another scheme (the scheme's own rule).
 */
function mppCredential(headers: Headers): string | undefined {
  return [headers.get("Authorization"), headers.get("Payment-Authorization")].find((value) =>
    value?.match(/^Payment\s/i),
  ) as string | undefined;
}

/** Settles an MPP credential: 200 with Payment-Receipt, or a refusal's 402 with fresh challenges. */
async function payOverMpp(ref: X402ResourceRef, credential: string): Promise<Response> {
  try {
    const settled = await settleMppPayment(db(), ref, credential);
    // Stored by no cache, as x402's answer; `private` too, which MPP asks of every receipt.
    return Response.json(serializeX402Payment(settled), {
      headers: { "Cache-Control": "no-store, no-transform, private", "Payment-Receipt": mppReceipt(settled) },
    });
  } catch (error) {
    if (error instanceof ServiceError && error.status === 402)
      return paymentRequired(ref, { error, payment: null });
    throw error;
  }
}

/** GET /api/x402/<kind>/{id}: pay a paylink or a checkout session over x402 or MPP. */
export function x402Route(kind: X402ResourceKind) {
  return publicApiRoute<{ id: string }>(async ({ request, params }) => {
    await consumeRateLimit("x402Client", clientLimitKey(clientAddress(request.headers)));
    const ref = { kind, id: params.id };
    const header = request.headers.get("PAYMENT-SIGNATURE");
    const credential = mppCredential(request.headers);
    if (!header && credential) return payOverMpp(ref, credential);
    if (!header) return paymentRequired(ref, null);
    let payment: unknown;
    try {
      payment = decodePayment(header);
      const settled = await settleX402Payment(db(), ref, payment);
      return Response.json(serializeX402Payment(settled), {
        headers: { ...noStore, "PAYMENT-RESPONSE": encodePaymentResponseHeader(x402SettleResponse(settled)) },
      });
    } catch (error) {
      if (error instanceof ServiceError && error.status === 402)
        return paymentRequired(ref, { error, payment });
      throw error;
    }
  });
}
