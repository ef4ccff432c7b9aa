import {
  type checkoutSessionDetailObject,
  type checkoutSessionObject,
  decimalString,
  isoTimestamp,
  recurringObject,
  x402Url,
} from "crypto-checkout-agent/shapes";
import { z } from "zod";
import { checkoutSessionX402Url, checkoutUrl } from "../config";
import type { CheckoutSession, Organization } from "../generated/prisma/client";
import { formatPrice } from "../money/decimal";
import { logoPath } from "../organizations/serialize-organization";
import type { PaymentSummary } from "../payments/payment-summary";
import { effectiveSessionStatus, sessionStatuses } from "../session-state/session-state";
import { serializeRecurring } from "../subscriptions/serialize-recurring";

const status = z.enum(sessionStatuses);

export const publicCheckoutSessionObject = z
  .object({
    id: z.string(),
    object: z.literal("checkout_session"),
    status,
    merchantName: z.string().meta({ description: "The merchant's brand display name, else its name" }),
    brandColor: z.string().nullable().meta({ description: "#rrggbb accent, contrast-checked against white" }),
    logoUrl: z.string().nullable().meta({ description: "Path of the merchant's logo on this origin" }),
    amount: decimalString,
    currency: z.string(),
    merchantOrderId: z.string().nullable().meta({ description: "Shown on the buyer's receipt" }),
    description: z.string().nullable(),
    successUrl: z.string().nullable(),
    cancelUrl: z.string().nullable(),
    recurring: recurringObject,
    expiresAt: isoTimestamp,
    x402Url: x402Url("checkout session"),
  })
  .meta({ id: "PublicCheckoutSession" });

/** The session object returned on create (docs/api.md, "Create a checkout session"). */
export function serializeCheckoutSession(
  session: CheckoutSession,
  now = new Date(),
): z.output<typeof checkoutSessionObject> {
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
    recurring: serializeRecurring(session),
    expiresAt: session.expiresAt.toISOString(),
    createdAt: session.createdAt.toISOString(),
    url: checkoutUrl(session.id),
    x402Url: checkoutSessionX402Url(session.id),
  };
}

/**
 * The merchant's retrieve view (docs/api.md, "Retrieve a session"). `payment` summarises the
 * invoice once the buyer has started paying (null before).
 */
export function serializeCheckoutSessionDetail(
  { session, payment }: { session: CheckoutSession; payment: PaymentSummary | null },
  now = new Date(),
): z.output<typeof checkoutSessionDetailObject> {
  return {
    ...serializeCheckoutSession(session, now),
    customerEmail: session.customerEmail,
    customerName: session.customerName,
    metadata: session.metadata as Record<string, string | number | boolean | null>,
    payment,
  };
}

/**
 * What the hosted page needs and nothing else: no metadata, customer data or merchant internals.
 * The merchant's order id is the buyer's own reference (the receipt shows it).
 */
export function serializePublicCheckoutSession(
  session: CheckoutSession & {
    organization: Pick<Organization, "name" | "brandDisplayName" | "brandColor"> & {
      brandLogo: { id: string } | null;
    };
  },
  now = new Date(),
): z.output<typeof publicCheckoutSessionObject> {
  const { organization } = session;
  return {
    id: session.id,
    object: "checkout_session" as const,
    status: effectiveSessionStatus(session, now),
    merchantName: organization.brandDisplayName ?? organization.name,
    brandColor: organization.brandColor,
    logoUrl: organization.brandLogo ? logoPath(organization.brandLogo.id) : null,
    amount: formatPrice(session.amount, session.currency),
    currency: session.currency,
    merchantOrderId: session.merchantOrderId,
    description: session.description,
    successUrl: session.successUrl,
    cancelUrl: session.cancelUrl,
    recurring: serializeRecurring(session),
    expiresAt: session.expiresAt.toISOString(),
    x402Url: checkoutSessionX402Url(session.id),
  };
}
