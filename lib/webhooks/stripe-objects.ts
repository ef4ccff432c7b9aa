import { z } from "zod";
import { isPricingCurrency, Money, pricingCurrencies } from "../money/decimal";

// Stripe's objects (API reference: Checkout Session, Invoice, Subscription) built from our common
// event payload, for the STRIPE adapter. Only fields we can fill truthfully are present; an
// integration reads these and nothing else from an event.

const text = z.string().nullish();

/** The shared subscription contract of recurring invoice and subscription events. */
const subscriptionSource = z.object({
  id: z.string(),
  status: z.enum(["ACTIVE", "PAST_DUE", "CANCELLED"]),
  currentPeriodStart: z.iso.datetime({ offset: true }),
  currentPeriodEnd: z.iso.datetime({ offset: true }),
  cancelAtPeriodEnd: z.boolean(),
  cancellationReason: z.enum(["unpaid", "requested"]).nullable(),
  interval: z.enum(["day", "week", "month", "year"]),
  intervalCount: z.number().int().positive(),
});

/** The common payload of invoice, payment and subscription events (serializeInvoiceEvent). */
export const eventSource = z.object({
  invoiceId: z.string(),
  amount: z.string(),
  currency: z.string(),
  paymentType: z.enum(["ONE_TIME", "RECURRING"]),
  livemode: z.boolean(),
  network: text,
  token: text,
  tokenAmount: text,
  checkoutSessionId: text,
  merchantOrderId: text,
  metadata: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).nullish(),
  customer: z
    .object({ email: text, name: text, clientReferenceId: text })
    .nullish()
    .transform((customer) => customer ?? {}),
  subscription: subscriptionSource.nullish(),
});
export type EventSource = z.output<typeof eventSource>;
type SubscriptionSource = z.output<typeof subscriptionSource>;

const unixSeconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

/** An amount in the currency's minor units (cents for USD/EUR/GBP), exact; null if it has none. */
export function minorUnits(amount: string, currency: string): number | null {
  const scale = isPricingCurrency(currency) ? pricingCurrencies[currency] : 2;
  // Prices have at most 12 integer digits, so the integer is well within a JSON number's exact range.
  if (!/^\d{1,12}(\.\d+)?$/.test(amount)) return null;
  const units = new Money(amount).mul(new Money(10).pow(scale));
  return units.isInteger() ? units.toNumber() : null;
}

/**
 * Stripe metadata is string to string. The merchant's own keys come through (numbers and
 * booleans as strings, nulls dropped); ours are prefixed so they never shadow them.
 */
function metadata(source: EventSource): Record<string, string> {
  const merchant = Object.entries(source.metadata ?? {}).filter(([, value]) => value !== null);
  const ours = {
    crypto_checkout_invoice_id: source.invoiceId,
    crypto_checkout_session_id: source.checkoutSessionId,
    crypto_checkout_merchant_order_id: source.merchantOrderId,
    crypto_checkout_network: source.network,
    crypto_checkout_token: source.token,
    crypto_checkout_token_amount: source.tokenAmount,
  };
  return Object.fromEntries(
    [...merchant, ...Object.entries(ours)]
      .filter(([, value]) => value !== null && value !== undefined)
      .map(([key, value]) => [key, String(value)]),
  );
}

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

export function invoiceObject(
  source: EventSource & { subscription: SubscriptionSource },
  created: number,
  status: "open" | "paid",
) {
  const amount = minorUnits(source.amount, source.currency) ?? 0;
  const paid = status === "paid" ? amount : 0;
  const { subscription } = source;
  return {
    id: source.invoiceId,
    object: "invoice" as const,
    amount_due: amount,
    amount_paid: paid,
    amount_remaining: amount - paid,
    billing_reason: "subscription" as const,
    // The buyer pushes each payment, as with Stripe's emailed invoices; nothing is charged.
    collection_method: "send_invoice" as const,
    created,
    currency: source.currency.toLowerCase(),
    customer: null,
    customer_email: source.customer.email ?? null,
    customer_name: source.customer.name ?? null,
    livemode: source.livemode,
    metadata: metadata(source),
    parent: {
      type: "subscription_details" as const,
      quote_details: null,
      subscription_details: { metadata: metadata(source), subscription: subscription.id },
    },
    period_start: unixSeconds(subscription.currentPeriodStart),
    period_end: unixSeconds(subscription.currentPeriodEnd),
    status,
    // Where API versions before 2025-03-31 put it; handlers written for them still read it.
    subscription: subscription.id,
    subtotal: amount,
    total: amount,
  };
}

const subscriptionStatuses = { ACTIVE: "active", PAST_DUE: "past_due", CANCELLED: "canceled" } as const;
const cancellationReasons = { unpaid: "payment_failed", requested: "cancellation_requested" } as const;

export function subscriptionObject(
  source: EventSource & { subscription: SubscriptionSource },
  created: number,
) {
  const { subscription } = source;
  const periodStart = unixSeconds(subscription.currentPeriodStart);
  const periodEnd = unixSeconds(subscription.currentPeriodEnd);
  const cancelled = subscription.status === "CANCELLED";
  const currency = source.currency.toLowerCase();
  return {
    id: subscription.id,
    object: "subscription" as const,
    cancel_at_period_end: subscription.cancelAtPeriodEnd,
    canceled_at: cancelled ? created : null,
    cancellation_details: {
      comment: null,
      feedback: null,
      reason: subscription.cancellationReason ? cancellationReasons[subscription.cancellationReason] : null,
    },
    collection_method: "send_invoice" as const,
    currency,
    // Where API versions before 2025-03-31 put the period; newer ones read it from the item.
    current_period_start: periodStart,
    current_period_end: periodEnd,
    ended_at: cancelled ? created : null,
    items: {
      object: "list" as const,
      data: [
        {
          object: "subscription_item" as const,
          current_period_start: periodStart,
          current_period_end: periodEnd,
          price: {
            object: "price" as const,
            currency,
            recurring: { interval: subscription.interval, interval_count: subscription.intervalCount },
            type: "recurring" as const,
            unit_amount: minorUnits(source.amount, source.currency),
          },
          quantity: 1,
          subscription: subscription.id,
        },
      ],
      has_more: false,
    },
    latest_invoice: source.invoiceId,
    livemode: source.livemode,
    metadata: metadata(source),
    status: subscriptionStatuses[subscription.status],
  };
}
