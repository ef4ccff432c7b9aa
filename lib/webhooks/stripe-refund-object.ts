import { z } from "zod";
import { isPricingCurrency, Money, pricingCurrencies } from "../money/decimal";
import { type EventSource, metadata, minorUnits, unixSeconds } from "./stripe-event-source";

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
export function tokenToMinorUnits(source: RefundEventSource, tokenAmount: string): number {
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
