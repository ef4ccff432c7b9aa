import { type EventSource, metadata, minorUnits } from "./stripe-event-source";

/** Stripe's Checkout Session object, from our event payload. */
export function checkoutSessionObject(
  source: EventSource,
  created: number,
  paymentStatus: "paid" | "unpaid",
) {
  const amount = minorUnits(source.amount, source.currency);
  const { email = null, name = null, clientReferenceId = null } = source.customer;
  return {
    id: source.checkoutSessionId ?? source.invoiceId,
    object: "checkout.session" as const,
    amount_subtotal: amount,
    amount_total: amount,
    client_reference_id: clientReferenceId,
    created,
    currency: source.currency.toLowerCase(),
    customer: null,
    customer_details: { address: null, email, name, phone: null, tax_exempt: "none" as const, tax_ids: [] },
    customer_email: email,
    // Stripe's id of the invoice behind the session: ours, inv_….
    invoice: source.invoiceId,
    livemode: source.livemode,
    metadata: metadata(source),
    // A recurring price's first invoice: its subscription starts when it is paid.
    mode: source.paymentType === "RECURRING" ? ("subscription" as const) : ("payment" as const),
    payment_intent: null,
    payment_method_types: ["crypto"],
    payment_status: paymentStatus,
    status: "complete" as const,
    subscription: null,
    url: null,
  };
}
