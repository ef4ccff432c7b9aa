import type { Tx } from "../db/client";
import { invalidRequest, notFound } from "../errors";
import { type CheckoutSession, type Paylink, Prisma } from "../generated/prisma/client";
import { newId } from "../ids";
import type { CreateCheckoutSessionInput } from "./checkout-session-schemas";

const sessionIdPlaceholder = "{CHECKOUT_SESSION_ID}";

async function priceOf(
  database: Tx,
  organizationId: string,
  request: CreateCheckoutSessionInput,
  read: Paylink | undefined,
) {
  if (request.mode === "standalone") {
    return {
      amount: request.amount,
      currency: request.currency,
      description: request.description ?? null,
      paylinkId: null,
      recurringInterval: request.recurring?.interval ?? null,
      recurringIntervalCount: request.recurring?.intervalCount ?? null,
    };
  }
  const paylink =
    read?.id === request.paylinkId && read.organizationId === organizationId
      ? read
      : await database.paylink.findFirst({ where: { id: request.paylinkId, organizationId } });
  if (!paylink) throw notFound("paylink", "paylinkId");
  if (!paylink.enabled) {
    throw invalidRequest(
      "paylink_disabled",
      "This paylink is disabled; enable it or use another.",
      "paylinkId",
    );
  }
  return {
    amount: paylink.amount.toString(),
    currency: paylink.currency,
    description: paylink.description ?? paylink.name,
    paylinkId: paylink.id,
    recurringInterval: paylink.recurringInterval,
    recurringIntervalCount: paylink.recurringIntervalCount,
  };
}

/**
 * A new OPEN session's row (not yet stored): the price from the request, or from the paylink,
 * which must be the organization's and enabled. Creating one through the API and paying a
 * paylink over x402 (lib/x402) both start here. `paylink`: the paylink's row as the caller's
 * transaction already read it (x402 reads it to learn its organization), not read again.
 */
export async function buildCheckoutSession(
  database: Tx,
  organizationId: string,
  request: CreateCheckoutSessionInput,
  now: Date,
  paylink?: Paylink,
): Promise<CheckoutSession> {
  const price = await priceOf(database, organizationId, request, paylink);
  const id = newId("checkoutSession");
  return {
    id,
    organizationId,
    status: "OPEN",
    paylinkId: price.paylinkId,
    amount: new Prisma.Decimal(price.amount),
    currency: price.currency,
    description: price.description,
    merchantOrderId: request.merchantOrderId ?? null,
    customerEmail: request.customerEmail ?? null,
    customerName: request.customerName ?? null,
    locale: null,
    clientReferenceId: request.clientReferenceId ?? null,
    metadata: request.metadata ?? {},
    successUrl: request.successUrl?.replaceAll(sessionIdPlaceholder, id) ?? null,
    cancelUrl: request.cancelUrl?.replaceAll(sessionIdPlaceholder, id) ?? null,
    recurringInterval: price.recurringInterval,
    recurringIntervalCount: price.recurringIntervalCount,
    expiresAt: new Date(now.getTime() + request.expiresInMinutes * 60_000),
    createdAt: now,
    updatedAt: now,
  };
}
