import type { CheckoutSession, Invoice } from "../generated/prisma/client";

/** Spec 6.3: the payload fields of invoice and payment events. */
export function serializeInvoiceEvent(invoice: Invoice, session: CheckoutSession, amountUsd: string) {
  return {
    amount: invoice.pricingAmount.toString(),
    amountUsd,
    currency: invoice.pricingCurrency,
    rate: invoice.rate.toString(),
    paymentType: "ONE_TIME",
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
  };
}
