import type Stripe from "stripe";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { Event } from "../generated/prisma/client";
import { chargeObject } from "./stripe-charge-object";
import { checkoutSessionObject } from "./stripe-checkout-session-object";
import { toStripeEvent } from "./stripe-event";
import { minorUnits } from "./stripe-event-source";
import { invoiceObject } from "./stripe-invoice-object";
import { refundObject } from "./stripe-refund-object";
import { subscriptionObject } from "./stripe-subscription-object";

const createdAt = new Date("2026-11-22T16:40:00.000Z");
const created = 1795365600;

const oneTime = {
  id: "evt_1",
  createdAt: createdAt.toISOString(),
  orgId: "org_1",
  invoiceId: "inv_1",
  amount: "49.90",
  amountUsd: "53.89",
  currency: "EUR",
  rate: "1.08",
  paymentType: "ONE_TIME",
  status: "CONFIRMED",
  network: "base",
  token: "USDC",
  tokenAmount: "53.892",
  checkoutSessionId: "ycs_1",
  merchantOrderId: "order-7",
  metadata: { cart: "c-9", quantity: 2, gift: false, note: null },
  customer: { email: "ada@example.com", name: "Ada Buyer", clientReferenceId: "cus_42" },
  livemode: true,
};

const subscription = (
  status: "ACTIVE" | "PAST_DUE" | "CANCELLED",
  reason: "unpaid" | "requested" | null,
) => ({
  id: "sub_1",
  status,
  currentPeriodStart: "2026-11-01T00:00:00.000Z",
  currentPeriodEnd: "2026-12-01T00:00:00.000Z",
  cancelAtPeriodEnd: false,
  cancellationReason: reason,
  interval: "month",
  intervalCount: 1,
});

const renewal = (
  status: "ACTIVE" | "PAST_DUE" | "CANCELLED",
  reason: "unpaid" | "requested" | null = null,
) => ({
  ...oneTime,
  paymentType: "RECURRING",
  subscription: subscription(status, reason),
});

/** A refund event's payload: the invoice's common fields, what was refunded so far, the refund. */
const refunded = (
  status: "pending_claim" | "pending" | "succeeded" | "failed",
  fields: { txHash?: string | null; amountRefunded?: string; amount?: string } = {},
) => ({
  ...oneTime,
  amountRefunded: fields.amountRefunded ?? "0",
  refund: {
    id: "rfd_1",
    object: "refund",
    invoiceId: "inv_1",
    checkoutSessionId: "ycs_1",
    network: "base",
    token: "USDC",
    amount: fields.amount ?? "10.8",
    status,
    destination: "payer",
    toAddress: "0x52908400098527886E0F7030069857D2E4169EE7",
    txHash: fields.txHash ?? null,
    reason: "Damaged in transit",
    failureReason: status === "failed" ? "the transfer reverted" : null,
    pendingReason: null,
    createdAt: createdAt.toISOString(),
    updatedAt: createdAt.toISOString(),
  },
});

function event(type: string, payload: object, livemode = true): Event {
  return {
    id: livemode ? "evt_1" : "evt_test_1",
    organizationId: "org_1",
    type,
    livemode,
    invoiceId: "inv_1",
    payload: { ...payload, type, livemode },
    createdAt,
  };
}

describe("STRIPE adapter: our events as Stripe events", () => {
  const firstInvoice = { ...oneTime, paymentType: "RECURRING" };
  const session = (payment_status: string, mode = "payment") => ({
    object: "checkout.session",
    status: "complete",
    payment_status,
    mode,
  });
  it.each<[string, string, string, object, object]>([
    ["invoice.created", "one-time", "checkout.session.completed", oneTime, session("unpaid")],
    ["payment.confirmed", "one-time", "checkout.session.async_payment_succeeded", oneTime, session("paid")],
    ["invoice.overdue", "one-time", "checkout.session.async_payment_failed", oneTime, session("unpaid")],
    [
      "invoice.created",
      "first recurring",
      "checkout.session.completed",
      firstInvoice,
      session("unpaid", "subscription"),
    ],
    [
      "invoice.overdue",
      "first recurring",
      "checkout.session.async_payment_failed",
      firstInvoice,
      session("unpaid", "subscription"),
    ],
    [
      "invoice.created",
      "renewal",
      "invoice.finalized",
      renewal("ACTIVE"),
      { object: "invoice", status: "open" },
    ],
    [
      "payment.confirmed",
      "renewal",
      "invoice.paid",
      renewal("ACTIVE"),
      { object: "invoice", status: "paid" },
    ],
    [
      "invoice.overdue",
      "renewal",
      "invoice.payment_failed",
      renewal("ACTIVE"),
      { object: "invoice", status: "open" },
    ],
    [
      "subscription.overdue",
      "renewal",
      "customer.subscription.updated",
      renewal("PAST_DUE"),
      { object: "subscription", status: "past_due" },
    ],
    [
      "subscription.cancelled",
      "renewal",
      "customer.subscription.deleted",
      renewal("CANCELLED", "unpaid"),
      { object: "subscription", status: "canceled" },
    ],
    [
      "refund.created",
      "refunded",
      "refund.created",
      refunded("pending"),
      { object: "refund", status: "pending", amount: 1000, charge: "inv_1" },
    ],
    [
      "refund.created",
      "refunded (claim link)",
      "refund.created",
      refunded("pending_claim"),
      { object: "refund", status: "requires_action" },
    ],
    [
      "refund.succeeded",
      "refunded",
      "charge.refunded",
      refunded("succeeded", { txHash: "0xabc", amountRefunded: "10.8" }),
      { object: "charge", id: "inv_1", amount_refunded: 1000, refunded: false },
    ],
    [
      "refund.failed",
      "refunded (transfer failed)",
      "refund.failed",
      refunded("failed", { txHash: "0xabc" }),
      { object: "refund", status: "failed", failure_reason: "unknown" },
    ],
    [
      "refund.failed",
      "refunded (cancelled before sending)",
      "refund.updated",
      refunded("failed"),
      { object: "refund", status: "canceled" },
    ],
  ])("%s of a %s invoice → %s", (ours, _kind, stripeType, payload, object) => {
    const mapped = toStripeEvent(event(ours, payload));
    expect(mapped.type).toBe(stripeType);
    expect(mapped.data.object).toMatchObject(object);
  });

  it("wraps the object in Stripe's event envelope, test events with livemode false", () => {
    expect(toStripeEvent(event("payment.confirmed", oneTime))).toMatchObject({
      id: "evt_1",
      object: "event",
      api_version: null,
      created,
      livemode: true,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      data: { object: { object: "checkout.session", livemode: true } },
    });
    const test = toStripeEvent(event("payment.confirmed", { ...oneTime, livemode: false }, false));
    expect(test).toMatchObject({ id: "evt_test_1", livemode: false, data: { object: { livemode: false } } });
  });

  it("says what changed on customer.subscription.updated, as Stripe does", () => {
    expect(toStripeEvent(event("subscription.overdue", renewal("PAST_DUE"))).data).toMatchObject({
      previous_attributes: { status: "active" },
    });
    expect(toStripeEvent(event("payment.confirmed", oneTime)).data).not.toHaveProperty("previous_attributes");
  });

  it.each([
    ["an event type outside the table", "organization.updated", oneTime],
    ["a payload without the common fields", "payment.confirmed", { amount: "49.00", currency: "USD" }],
    ["a subscription event of a one-time payment", "subscription.cancelled", oneTime],
    ["a subscription event without its subscription", "subscription.overdue", firstInvoice],
    ["a name on Object's prototype", "constructor", oneTime],
    ["a refund event without its refund", "refund.succeeded", oneTime],
  ])("keeps our type and payload for %s", (_label, type, payload) => {
    const mapped = toStripeEvent(event(type, payload));
    expect(mapped.type).toBe(type);
    expect(mapped.data.object).toEqual({ ...payload, type, livemode: true });
  });
});

describe("Stripe objects", () => {
  const source = { ...oneTime, livemode: true, customer: oneTime.customer };

  it("builds a Checkout Session with our ids in documented fields and metadata", () => {
    expect(checkoutSessionObject(source as never, created, "paid")).toEqual({
      id: "ycs_1",
      object: "checkout.session",
      amount_subtotal: 4990,
      amount_total: 4990,
      client_reference_id: "cus_42",
      created,
      currency: "eur",
      customer: null,
      customer_details: {
        address: null,
        email: "ada@example.com",
        name: "Ada Buyer",
        phone: null,
        tax_exempt: "none",
        tax_ids: [],
      },
      customer_email: "ada@example.com",
      invoice: "inv_1",
      livemode: true,
      metadata: {
        cart: "c-9",
        quantity: "2",
        gift: "false",
        crypto_checkout_invoice_id: "inv_1",
        crypto_checkout_session_id: "ycs_1",
        crypto_checkout_merchant_order_id: "order-7",
        crypto_checkout_network: "base",
        crypto_checkout_token: "USDC",
        crypto_checkout_token_amount: "53.892",
      },
      mode: "payment",
      payment_intent: null,
      payment_method_types: ["crypto"],
      payment_status: "paid",
      status: "complete",
      subscription: null,
      url: null,
    });
  });

  it("names a test event's session after its invoice and leaves absent customer fields null", () => {
    const test = {
      ...source,
      checkoutSessionId: null,
      metadata: undefined,
      network: undefined,
      token: undefined,
      tokenAmount: undefined,
      customer: { email: "test.buyer@example.com", name: "Test Buyer", clientReferenceId: null },
    };
    expect(checkoutSessionObject(test as never, created, "unpaid")).toMatchObject({
      id: "inv_1",
      client_reference_id: null,
      metadata: { crypto_checkout_invoice_id: "inv_1", crypto_checkout_merchant_order_id: "order-7" },
    });
  });

  it("builds a paid subscription Invoice", () => {
    const paid = { ...source, subscription: subscription("ACTIVE", null) };
    expect(invoiceObject(paid as never, created, "paid")).toEqual({
      id: "inv_1",
      object: "invoice",
      amount_due: 4990,
      amount_paid: 4990,
      amount_remaining: 0,
      billing_reason: "subscription",
      collection_method: "send_invoice",
      created,
      currency: "eur",
      customer: null,
      customer_email: "ada@example.com",
      customer_name: "Ada Buyer",
      livemode: true,
      metadata: expect.objectContaining({ cart: "c-9", crypto_checkout_invoice_id: "inv_1" }),
      parent: {
        type: "subscription_details",
        quote_details: null,
        subscription_details: { metadata: expect.objectContaining({ cart: "c-9" }), subscription: "sub_1" },
      },
      period_start: 1793491200,
      period_end: 1796083200,
      status: "paid",
      subscription: "sub_1",
      subtotal: 4990,
      total: 4990,
    });
    expect(invoiceObject(paid as never, created, "open")).toMatchObject({
      amount_paid: 0,
      amount_remaining: 4990,
    });
  });

  it.each([
    ["ACTIVE", null, "active", null, null],
    ["PAST_DUE", null, "past_due", null, null],
    ["CANCELLED", "unpaid", "canceled", "payment_failed", created],
    ["CANCELLED", "requested", "canceled", "cancellation_requested", created],
  ] as const)(
    "builds a Subscription: %s (%s) → %s, reason %s",
    (status, reason, stripeStatus, stripeReason, endedAt) => {
      const object = subscriptionObject(
        { ...source, subscription: subscription(status, reason) } as never,
        created,
      );
      expect(object).toMatchObject({
        id: "sub_1",
        object: "subscription",
        status: stripeStatus,
        cancellation_details: { reason: stripeReason },
        canceled_at: endedAt,
        ended_at: endedAt,
        current_period_start: 1793491200,
        current_period_end: 1796083200,
        latest_invoice: "inv_1",
      });
      expect(object.items.data[0]).toMatchObject({
        current_period_start: 1793491200,
        current_period_end: 1796083200,
        price: { currency: "eur", unit_amount: 4990, recurring: { interval: "month", interval_count: 1 } },
      });
    },
  );

  it("builds a Refund in minor units at the invoice's rate, with the transaction as its crypto reference", () => {
    const payload = { ...refunded("succeeded", { txHash: "0xabc" }), livemode: true };
    expect(refundObject(payload as never)).toEqual({
      id: "rfd_1",
      object: "refund",
      // 10.8 USDC at 1.08 USDC per EUR: 10.00 EUR.
      amount: 1000,
      balance_transaction: null,
      charge: "inv_1",
      created,
      currency: "eur",
      destination_details: { type: "crypto", crypto: { reference: "0xabc" } },
      metadata: expect.objectContaining({
        cart: "c-9",
        crypto_checkout_invoice_id: "inv_1",
        crypto_checkout_refund_token_amount: "10.8",
        crypto_checkout_refund_destination: "payer",
        crypto_checkout_refund_to_address: "0x52908400098527886E0F7030069857D2E4169EE7",
        crypto_checkout_refund_reason: "Damaged in transit",
      }),
      payment_intent: null,
      reason: null,
      status: "succeeded",
    });
  });

  it("builds the refunded Charge: the invoice, refunded in full only when all of it came back", () => {
    const whole = {
      ...refunded("succeeded", { txHash: "0xabc", amount: "53.892", amountRefunded: "53.892" }),
    };
    const charge = chargeObject({ ...whole, livemode: true } as never, created);
    expect(charge).toMatchObject({
      id: "inv_1",
      object: "charge",
      amount: 4990,
      amount_captured: 4990,
      amount_refunded: 4990,
      billing_details: { email: "ada@example.com", name: "Ada Buyer" },
      currency: "eur",
      paid: true,
      refunded: true,
      status: "succeeded",
      refunds: { object: "list", has_more: false },
    });
    expect(charge.refunds.data[0]).toMatchObject({ id: "rfd_1", amount: 4990 });
  });

  it.each([
    ["49.00", "USD", 4900],
    ["0.01", "USD", 1],
    ["12.5", "GBP", 1250],
    ["7", "EUR", 700],
    ["999999999999.99", "EUR", 99999999999999],
    ["49.001", "USD", null],
    ["-1.00", "USD", null],
    ["1e3", "USD", null],
    ["25.500", "EUR", 2550],
    ["0", "USD", 0],
    ["1234567890123", "USD", null],
  ])("amount %s %s is %s minor units", (amount, currency, expected) => {
    expect(minorUnits(amount, currency)).toBe(expected);
  });

  it("fits Stripe's own types for every field it fills", () => {
    type Shape<T> = T extends (infer U)[]
      ? Shape<U>[]
      : T extends object
        ? { [K in keyof T]?: Shape<T[K]> }
        : T;
    expectTypeOf(checkoutSessionObject).returns.toExtend<Shape<Stripe.Checkout.Session>>();
    expectTypeOf(invoiceObject).returns.toExtend<Shape<Stripe.Invoice>>();
    expectTypeOf(subscriptionObject).returns.toExtend<Shape<Stripe.Subscription>>();
    expectTypeOf(refundObject).returns.toExtend<Shape<Stripe.Refund>>();
    expectTypeOf(chargeObject).returns.toExtend<Shape<Stripe.Charge>>();
    expectTypeOf(toStripeEvent).returns.toExtend<Shape<Omit<Stripe.Event, "data" | "type">>>();
  });
});
