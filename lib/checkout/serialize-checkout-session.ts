import { config } from "../config";
import type { CheckoutSession, Organization } from "../generated/prisma/client";
import { formatAmount, isPricingCurrency, pricingCurrencies } from "../money/decimal";
import { effectiveSessionStatus } from "./session-state";

export function formatPrice(amount: { toString(): string }, currency: string): string {
  return formatAmount(amount.toString(), isPricingCurrency(currency) ? pricingCurrencies[currency] : 2);
}

export function checkoutUrl(id: string): string {
  return `${config().payBaseUrl}/${id}`;
}

/** Spec 2.1: the session object returned on create. */
export function serializeCheckoutSession(session: CheckoutSession, now = new Date()) {
  return {
    id: session.id,
    object: "checkout_session" as const,
    status: effectiveSessionStatus(session, now),
    paylinkId: session.paylinkId,
    amount: formatPrice(session.amount, session.currency),
    currency: session.currency,
    merchantOrderId: session.merchantOrderId,
    description: session.description,
    clientReferenceId: session.clientReferenceId,
    successUrl: session.successUrl,
    cancelUrl: session.cancelUrl,
    expiresAt: session.expiresAt.toISOString(),
    createdAt: session.createdAt.toISOString(),
    url: checkoutUrl(session.id),
  };
}

/**
 * Spec 2.4: the merchant's retrieve view. `payment` summarises the invoice once the buyer has
 * started paying (null before).
 */
export function serializeCheckoutSessionDetail(session: CheckoutSession, now = new Date()) {
  return {
    ...serializeCheckoutSession(session, now),
    customerEmail: session.customerEmail,
    customerName: session.customerName,
    metadata: session.metadata as Record<string, string | number | boolean | null>,
    payment: null,
  };
}

/** What the hosted page needs and nothing else: no metadata, customer data or merchant internals. */
export function serializePublicCheckoutSession(
  session: CheckoutSession & { organization: Pick<Organization, "name"> },
  now = new Date(),
) {
  return {
    id: session.id,
    object: "checkout_session" as const,
    status: effectiveSessionStatus(session, now),
    merchantName: session.organization.name,
    amount: formatPrice(session.amount, session.currency),
    currency: session.currency,
    description: session.description,
    successUrl: session.successUrl,
    cancelUrl: session.cancelUrl,
    expiresAt: session.expiresAt.toISOString(),
  };
}
