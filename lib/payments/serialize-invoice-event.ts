import type { CheckoutSession, Invoice } from "../generated/prisma/client";
import { formatDecimal } from "../money/decimal";
import type { SubscriptionEventObject } from "../recurring/subscription-event-object";
import { formatTokenAmount } from "./payment-summary";

/**
 * The payload fields of invoice and payment events (docs/webhooks.md, "Events"). The amounts are
 * the invoice's frozen quote, so every event of one invoice carries the same amountUsd, rate and
 * tokenAmount; what was received is reported beside them (amountPaid, overpaid). A recurring
 * price's invoices are RECURRING and, once the subscription exists (from the first payment's
 * confirmation), carry it.
 */
export function serializeInvoiceEvent(
  invoice: Invoice,
  session: CheckoutSession,
  subscription?: SubscriptionEventObject | null,
) {
  return {
    amount: invoice.pricingAmount.toString(),
    amountUsd: invoice.amountUsd.toFixed(2),
    currency: invoice.pricingCurrency,
    rate: formatDecimal(invoice.rate),
    paymentType: session.recurringInterval ? "RECURRING" : "ONE_TIME",
    status: invoice.status,
    network: invoice.network,
    token: invoice.token,
    tokenAmount: formatTokenAmount(invoice.network, invoice.token, invoice.amountDue),
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
