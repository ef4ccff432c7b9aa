import { z } from "zod";
import { checkoutUrl } from "../config";
import type { Invoice, Subscription } from "../generated/prisma/client";
import { formatPrice } from "../money/decimal";
import { decimalString, isoTimestamp } from "../openapi/common-schemas";
import { recurringIntervals } from "../recurring/subscription-periods";
import { subscriptionStatuses } from "../recurring/subscription-state";

export const subscriptionObject = z
  .object({
    id: z.string().meta({ example: "sub_4fQh0r7Xq1s9bT2mN8kLp3Zy" }),
    object: z.literal("subscription"),
    status: z.enum(subscriptionStatuses),
    paylinkId: z.string().nullable(),
    amount: decimalString,
    currency: z.string(),
    description: z.string().nullable(),
    interval: z.enum(recurringIntervals),
    intervalCount: z.number().int(),
    network: z.string(),
    token: z.string(),
    customer: z.object({
      email: z.string().nullable(),
      name: z.string().nullable(),
      clientReferenceId: z.string().nullable(),
    }),
    merchantOrderId: z.string().nullable(),
    metadata: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
    anchor: isoTimestamp,
    currentPeriodStart: isoTimestamp,
    currentPeriodEnd: isoTimestamp,
    cancelAtPeriodEnd: z.boolean(),
    cancellationReason: z.enum(["unpaid", "requested"]).nullable(),
    cancelledAt: isoTimestamp.nullable(),
    createdAt: isoTimestamp,
  })
  .meta({ id: "Subscription" });

export const subscriptionInvoiceObject = z
  .object({
    id: z.string(),
    object: z.literal("invoice"),
    status: z.enum(["AWAITING_PAYMENT", "PARTIALLY_PAID", "CONFIRMING", "CONFIRMED", "OVERDUE"]),
    periodIndex: z.number().int(),
    periodStart: isoTimestamp,
    periodEnd: isoTimestamp,
    amountDue: decimalString,
    amountPaid: decimalString,
    token: z.string(),
    deadline: isoTimestamp,
    checkoutSessionId: z.string(),
    url: z.string().meta({ description: "Hosted page where the customer pays this invoice" }),
    createdAt: isoTimestamp,
  })
  .meta({ id: "SubscriptionInvoice" });

export const subscriptionDetailObject = subscriptionObject
  .extend({ invoices: z.array(subscriptionInvoiceObject).meta({ description: "Newest period first" }) })
  .meta({ id: "SubscriptionDetail" });

export function serializeSubscription(subscription: Subscription): z.output<typeof subscriptionObject> {
  return {
    id: subscription.id,
    object: "subscription",
    status: subscription.status,
    paylinkId: subscription.paylinkId,
    amount: formatPrice(subscription.amount, subscription.currency),
    currency: subscription.currency,
    description: subscription.description,
    interval: subscription.interval,
    intervalCount: subscription.intervalCount,
    network: subscription.network,
    token: subscription.token,
    customer: {
      email: subscription.customerEmail,
      name: subscription.customerName,
      clientReferenceId: subscription.clientReferenceId,
    },
    merchantOrderId: subscription.merchantOrderId,
    metadata: subscription.metadata as Record<string, string | number | boolean | null>,
    anchor: subscription.anchor.toISOString(),
    currentPeriodStart: subscription.currentPeriodStart.toISOString(),
    currentPeriodEnd: subscription.currentPeriodEnd.toISOString(),
    cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
    cancellationReason: subscription.cancellationReason as "unpaid" | "requested" | null,
    cancelledAt: subscription.cancelledAt?.toISOString() ?? null,
    createdAt: subscription.createdAt.toISOString(),
  };
}

export function serializeSubscriptionDetail(
  subscription: Subscription & { invoices: Invoice[] },
): z.output<typeof subscriptionDetailObject> {
  return {
    ...serializeSubscription(subscription),
    invoices: subscription.invoices.map((invoice) => ({
      id: invoice.id,
      object: "invoice" as const,
      status: invoice.status,
      periodIndex: invoice.periodIndex ?? 0,
      periodStart: (invoice.periodStart ?? invoice.createdAt).toISOString(),
      periodEnd: (invoice.periodEnd ?? invoice.deadline).toISOString(),
      amountDue: invoice.amountDue.toString(),
      amountPaid: invoice.amountPaid.toString(),
      token: invoice.token,
      deadline: invoice.deadline.toISOString(),
      checkoutSessionId: invoice.checkoutSessionId,
      url: checkoutUrl(invoice.checkoutSessionId),
      createdAt: invoice.createdAt.toISOString(),
    })),
  };
}
