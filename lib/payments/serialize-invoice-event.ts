import { config } from "../config";
import type { CheckoutSession, Invoice } from "../generated/prisma/client";
import { Money } from "../money/decimal";
import { priceOf } from "./quote";

/** The invoice's price in USD, as events report it. */
export function invoiceAmountUsd(invoice: Pick<Invoice, "pricingAmount" | "pricingCurrency">): string {
  return new Money(invoice.pricingAmount.toString())
    .mul(priceOf(config().rates, invoice.pricingCurrency, "USD"))
    .toFixed(2);
}

/** The `subscription` object of recurring invoices' events (shared event contract). */
export type SubscriptionEventObject = {
  id: string;
  status: "ACTIVE" | "PAST_DUE" | "CANCELLED";
  currentPeriodStart: string;
  currentPeriodEnd: string;
  cancelAtPeriodEnd: boolean;
  cancellationReason: "unpaid" | "requested" | null;
  interval: "day" | "week" | "month" | "year";
  intervalCount: number;
};

/**
 * Spec 6.3: the payload fields of invoice and payment events. A recurring price's invoices are
 * RECURRING and, once the subscription exists (from the first payment's confirmation), carry it.
 */
export function serializeInvoiceEvent(
  invoice: Invoice,
  session: CheckoutSession,
  amountUsd: string,
  subscription?: SubscriptionEventObject | null,
) {
  return {
    amount: invoice.pricingAmount.toString(),
    amountUsd,
    currency: invoice.pricingCurrency,
    rate: invoice.rate.toString(),
    paymentType: session.recurringInterval ? "RECURRING" : "ONE_TIME",
    status: invoice.status,
    network: invoice.network,
    token: invoice.token,
    tokenAmount: invoice.amountDue.toString(),
    checkoutSessionId: session.id,
    merchantOrderId: session.merchantOrderId,
    metadata: session.metadata as Record<string, string | number | boolean | null>,
    customer: {
      email: session.customerEmail,
      name: session.customerName,
      clientReferenceId: session.clientReferenceId,
    },
    ...(subscription ? { subscription } : {}),
  };
}
