import type { Db } from "../db/client";
import { invalidRequest, notFound } from "../errors";
import { type IdempotencyClaim, runIdempotently } from "../idempotency/run-idempotently";
import { newId } from "../ids";
import type { CreateCheckoutSessionInput } from "./checkout-session-schemas";
import { serializeCheckoutSession } from "./serialize-checkout-session";

const sessionIdPlaceholder = "{CHECKOUT_SESSION_ID}";

/**
 * Creates a checkout session (standalone or from a paylink), once per Idempotency-Key. Returns the
 * stored response, so a replay is byte-for-byte the original.
 */
export async function createCheckoutSession(
  database: Db,
  input: {
    organizationId: string;
    request: CreateCheckoutSessionInput;
    idempotency: IdempotencyClaim | null;
  },
  now = new Date(),
) {
  const { request, organizationId } = input;
  return runIdempotently(database, input.idempotency, async (tx) => {
    let price: { amount: string; currency: string; description: string | null; paylinkId: string | null };
    if (request.mode === "paylink") {
      const paylink = await tx.paylink.findFirst({ where: { id: request.paylinkId, organizationId } });
      if (!paylink) throw notFound("paylink", "paylinkId");
      if (!paylink.enabled) {
        throw invalidRequest(
          "paylink_disabled",
          "This paylink is disabled; enable it or use another.",
          "paylinkId",
        );
      }
      price = {
        amount: paylink.amount.toString(),
        currency: paylink.currency,
        description: paylink.description ?? paylink.name,
        paylinkId: paylink.id,
      };
    } else {
      price = {
        amount: request.amount,
        currency: request.currency,
        description: request.description ?? null,
        paylinkId: null,
      };
    }
    const id = newId("checkoutSession");
    const session = await tx.checkoutSession.create({
      data: {
        id,
        organizationId,
        paylinkId: price.paylinkId,
        amount: price.amount,
        currency: price.currency,
        description: price.description,
        merchantOrderId: request.merchantOrderId,
        customerEmail: request.customerEmail,
        customerName: request.customerName,
        clientReferenceId: request.clientReferenceId,
        metadata: request.metadata ?? {},
        successUrl: request.successUrl?.replaceAll(sessionIdPlaceholder, id),
        cancelUrl: request.cancelUrl?.replaceAll(sessionIdPlaceholder, id),
        expiresAt: new Date(now.getTime() + request.expiresInMinutes * 60_000),
        createdAt: now,
      },
    });
    return { status: 200, body: serializeCheckoutSession(session, now) };
  });
}
