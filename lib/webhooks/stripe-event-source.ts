import { z } from "zod";
import { isPricingCurrency, Money, pricingCurrencies } from "../money/decimal";

// The common event payload Stripe's objects are built from (lib/webhooks/stripe-*-object.ts), for
// the STRIPE adapter (lib/webhooks/stripe-event.ts). Only fields we can fill truthfully are
// present in those objects; an integration reads them and nothing else from an event.

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
export type SubscriptionSource = z.output<typeof subscriptionSource>;

export const unixSeconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

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
export function metadata(source: EventSource): Record<string, string> {
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
