import { Money } from "../money/decimal";
import { metadata, minorUnits } from "./stripe-event-source";
import { type RefundEventSource, refundObject, tokenToMinorUnits } from "./stripe-refund-object";

/** Stripe's Charge object: the invoice the buyer paid, with its refunds. */
export function chargeObject(source: RefundEventSource, created: number) {
  const amount = minorUnits(source.amount, source.currency) ?? 0;
  const amountRefunded = tokenToMinorUnits(source, source.amountRefunded);
  const { email = null, name = null } = source.customer;
  return {
    id: source.invoiceId,
    object: "charge" as const,
    amount,
    amount_captured: amount,
    amount_refunded: amountRefunded,
    billing_details: { address: null, email, name, phone: null },
    captured: true,
    created,
    currency: source.currency.toLowerCase(),
    livemode: source.livemode,
    metadata: metadata(source),
    paid: true,
    payment_intent: null,
    receipt_email: email,
    refunded: new Money(source.amountRefunded).gte(source.tokenAmount),
    refunds: { object: "list" as const, data: [refundObject(source)], has_more: false },
    status: "succeeded" as const,
  };
}
