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

/** The refund events' payload: the common fields, what was refunded so far and the refund object. */
export const refundEventSource = z.object({
  amountRefunded: z.string(),
  rate: z.string(),
  tokenAmount: z.string(),
  refund: z.object({
    id: z.string(),
    amount: z.string(),
    status: z.enum(["requires_approval", "pending_claim", "pending", "submitted", "succeeded", "failed"]),
    destination: z.enum(["payer", "claim", "address"]),
    toAddress: z.string().nullable(),
    txHash: z.string().nullable(),
    reason: z.string().nullable(),
    failureReason: z.string().nullable(),
    createdAt: z.iso.datetime({ offset: true }),
  }),
});
export type RefundEventSource = EventSource & z.output<typeof refundEventSource>;

/** A token amount in minor units of the pricing currency, at the invoice's frozen rate (half up). */
function tokenToMinorUnits(source: RefundEventSource, tokenAmount: string): number {
  const scale = isPricingCurrency(source.currency) ? pricingCurrencies[source.currency] : 2;
  const rate = new Money(source.rate);
  if (!rate.gt(0)) return 0;
  const units = new Money(tokenAmount).div(rate).toDecimalPlaces(scale, Money.ROUND_HALF_UP);
  const total = minorUnits(source.amount, source.currency) ?? 0;
  // The whole token amount is the whole price, whatever the rounding of the quote.
  return Math.min(units.mul(new Money(10).pow(scale)).toNumber(), total);
}

/**
 * Stripe's refund statuses: a claim link waits for the buyer as Stripe's refunds that need the
 * customer's details do (`requires_action`); a refund that failed before any transaction was sent
 * (cancelled, rejected, its link expired) is `canceled`.
 */
function stripeRefundStatus(refund: RefundEventSource["refund"]) {
  switch (refund.status) {
    case "pending_claim":
      return "requires_action" as const;
    case "succeeded":
      return "succeeded" as const;
    case "failed":
      return refund.txHash ? ("failed" as const) : ("canceled" as const);
    default:
      return "pending" as const;
  }
}

export function refundObject(source: RefundEventSource) {
  const { refund } = source;
  const status = stripeRefundStatus(refund);
  return {
    id: refund.id,
    object: "refund" as const,
    amount: tokenToMinorUnits(source, refund.amount),
    balance_transaction: null,
    // Our charge is the invoice the buyer paid (see chargeObject).
    charge: source.invoiceId,
    created: unixSeconds(refund.createdAt),
    currency: source.currency.toLowerCase(),
    // Stripe's stablecoin refunds name the on-chain transfer as the crypto reference.
    destination_details: { type: "crypto" as const, crypto: { reference: refund.txHash } },
    ...(status === "failed" ? { failure_reason: "unknown" as const } : {}),
    metadata: Object.fromEntries(
      Object.entries({
        ...metadata(source),
        crypto_checkout_refund_token_amount: refund.amount,
        crypto_checkout_refund_destination: refund.destination,
        crypto_checkout_refund_to_address: refund.toAddress,
        crypto_checkout_refund_reason: refund.reason,
        crypto_checkout_refund_failure_reason: refund.failureReason,
      }).filter((entry): entry is [string, string] => entry[1] !== null && entry[1] !== undefined),
    ),
    payment_intent: null,
    reason: null,
    status,
  };
}

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
