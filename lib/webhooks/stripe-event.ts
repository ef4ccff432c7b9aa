import type { Event } from "../generated/prisma/client";
import { chargeObject } from "./stripe-charge-object";
import { checkoutSessionObject } from "./stripe-checkout-session-object";
import { type EventSource, eventSource } from "./stripe-event-source";
import { invoiceObject } from "./stripe-invoice-object";
import { type RefundEventSource, refundEventSource, refundObject } from "./stripe-refund-object";
import { subscriptionObject } from "./stripe-subscription-object";

type Recurring = EventSource & { subscription: NonNullable<EventSource["subscription"]> };
type Mapped = { type: string; object: object; previousAttributes?: object };

// Our event types as the Stripe events a Checkout or Billing integration already handles
// (docs/webhooks.md has this table). A checkout payment is an asynchronous Checkout payment that
// the buyer starts and the chain settles later; the first invoice of a recurring price is one too
// (mode "subscription": its subscription starts when it is paid). An invoice of a running
// subscription is a Stripe invoice of a `send_invoice` subscription.
const checkout: Record<string, (source: EventSource, created: number) => Mapped> = {
  "invoice.created": (source, created) => ({
    type: "checkout.session.completed",
    object: checkoutSessionObject(source, created, "unpaid"),
  }),
  "payment.confirmed": (source, created) => ({
    type: "checkout.session.async_payment_succeeded",
    object: checkoutSessionObject(source, created, "paid"),
  }),
  "invoice.overdue": (source, created) => ({
    type: "checkout.session.async_payment_failed",
    object: checkoutSessionObject(source, created, "unpaid"),
  }),
};

const recurring: Record<string, (source: Recurring, created: number) => Mapped> = {
  "invoice.created": (source, created) => ({
    type: "invoice.finalized",
    object: invoiceObject(source, created, "open"),
  }),
  "payment.confirmed": (source, created) => ({
    type: "invoice.paid",
    object: invoiceObject(source, created, "paid"),
  }),
  "invoice.overdue": (source, created) => ({
    type: "invoice.payment_failed",
    object: invoiceObject(source, created, "open"),
  }),
  "subscription.overdue": (source, created) => ({
    type: "customer.subscription.updated",
    object: subscriptionObject(source, created),
    previousAttributes: { status: "active" },
  }),
  "subscription.cancelled": (source, created) => ({
    type: "customer.subscription.deleted",
    object: subscriptionObject(source, created),
  }),
};

// Refunds as Stripe reports them: created, then `charge.refunded` (the charge with its refunds)
// when the transfer is confirmed; a failed transfer is `refund.failed`, and a refund withdrawn
// before anything was sent (cancelled, rejected, expired) is Stripe's `refund.updated` to
// `canceled`.
const refunds: Record<string, (source: RefundEventSource, created: number) => Mapped> = {
  "refund.created": (source) => ({ type: "refund.created", object: refundObject(source) }),
  "refund.succeeded": (source, created) => ({
    type: "charge.refunded",
    object: chargeObject(source, created),
  }),
  "refund.failed": (source) => {
    const object = refundObject(source);
    return { type: object.status === "canceled" ? "refund.updated" : "refund.failed", object };
  },
};

/** Our event as Stripe's event type and object; an event outside the table keeps our type and payload. */
function mapEvent(event: Event, created: number): Mapped {
  const parsed = eventSource.safeParse(event.payload);
  const source = parsed.success ? parsed.data : null;
  const refund = refundEventSource.safeParse(event.payload);
  if (source && refund.success && Object.hasOwn(refunds, event.type)) {
    return refunds[event.type]({ ...source, ...refund.data }, created);
  }
  if (source?.subscription && Object.hasOwn(recurring, event.type)) {
    return recurring[event.type]({ ...source, subscription: source.subscription }, created);
  }
  if (source && !source.subscription && Object.hasOwn(checkout, event.type)) {
    return checkout[event.type](source, created);
  }
  return { type: event.type, object: event.payload as object };
}

/** The Stripe event envelope (API reference: the Event object) around one of our events. */
export function toStripeEvent(event: Event) {
  const created = Math.floor(event.createdAt.getTime() / 1000);
  const mapped = mapEvent(event, created);
  return {
    id: event.id,
    object: "event" as const,
    api_version: null,
    created,
    data: {
      object: mapped.object,
      ...(mapped.previousAttributes ? { previous_attributes: mapped.previousAttributes } : {}),
    },
    livemode: event.livemode,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type: mapped.type,
  };
}
