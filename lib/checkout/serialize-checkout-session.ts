import { z } from "zod";
import { checkoutUrl } from "../config";
import type { CheckoutSession, Organization } from "../generated/prisma/client";
import { formatPrice } from "../money/decimal";
import { decimalString, isoTimestamp } from "../openapi/common-schemas";
import { logoPath } from "../organizations/serialize-organization";
import { type PaymentSummary, paymentSummaryObject } from "../payments/payment-summary";
import { effectiveSessionStatus, sessionStatuses } from "../session-state/session-state";
import { recurringObject, serializeRecurring } from "../subscriptions/serialize-recurring";

const status = z.enum(sessionStatuses);

export const checkoutSessionObject = z
  .object({
    id: z.string().meta({ example: "ycs_4fQh0r7Xq1s9bT2mN8kLp3Zy" }),
    object: z.literal("checkout_session"),
    status,
    paylinkId: z.string().nullable(),
    amount: decimalString,
    currency: z.string(),
    merchantOrderId: z.string().nullable(),
    description: z.string().nullable(),
    clientReferenceId: z.string().nullable(),
    successUrl: z.string().nullable(),
    cancelUrl: z.string().nullable(),
    recurring: recurringObject,
    expiresAt: isoTimestamp,
    createdAt: isoTimestamp,
    url: z.string().meta({ description: "Hosted checkout page to send the buyer to" }),
  })
  .meta({ id: "CheckoutSession" });

export const checkoutSessionDetailObject = checkoutSessionObject
  .extend({
    customerEmail: z.string().nullable(),
    customerName: z.string().nullable(),
    metadata: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
    payment: paymentSummaryObject
      .nullable()
      .meta({ description: "Present once the buyer has started paying" }),
  })
  .meta({ id: "CheckoutSessionDetail" });

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
  };
}
