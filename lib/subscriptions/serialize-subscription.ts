import type { subscriptionDetailObject, subscriptionObject } from "crypto-checkout-agent/shapes";
import type { z } from "zod";
import { checkoutUrl } from "../config";
import type { Invoice, Subscription } from "../generated/prisma/client";
import { formatPrice } from "../money/decimal";

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
