import type { CheckoutSession, Invoice } from "../generated/prisma/client";
import { formatDecimal } from "../money/decimal";
import { formatTokenAmount } from "../money/format-token-amount";

/**
 * The payload fields of invoice and payment events (docs/webhooks.md, "Events"). The amounts are
 * the invoice's frozen quote, so every event of one invoice carries the same amountUsd, rate and
 * tokenAmount; what was received is reported beside them (amountPaid, overpaid). A recurring
 * price's invoices are RECURRING and, once the subscription exists (from the first payment's
 * confirmation), carry it.
 */
export function serializeInvoiceEvent<Subscription extends object>(
  invoice: Invoice,
  session: CheckoutSession,
  // The subscription's event object (lib/recurring/subscription-event-object.ts), taken as it is
  // so the outbox's folder does not depend on recurring billing.
  subscription?: Subscription | null,
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
