import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Stripe from "stripe";
import { afterAll, describe, expect, it } from "vitest";
import { createCheckoutSession } from "@/lib/checkout/create-checkout-session";
import { invoiceDeadlineMs } from "@/lib/checkout/create-session-invoice";
import { startPayment } from "@/lib/checkout/start-payment";
import { config } from "@/lib/config";
import { db } from "@/lib/db/client";
import { type EventType, type eventTypes, recordEvent } from "@/lib/events/record-event";
import type { Prisma } from "@/lib/generated/prisma/client";
import { Money } from "@/lib/money/decimal";
import { markOverdueInvoices } from "@/lib/payments/mark-overdue-invoices";
import { payInvoiceOnDevnet } from "@/lib/payments/pay-invoice-on-devnet";
import { scanNetwork } from "@/lib/payments/scan-network";
import { createRefund } from "@/lib/refunds/create-refund";
import { recordRefundEvent } from "@/lib/refunds/record-refund-event";
import { nextRefundStatus } from "@/lib/refunds/refund-state";
import { createTestOrganization } from "@/scripts/test-support/fixtures";
import { testDevnetForFile } from "@/scripts/test-support/test-devnet";
import { type ReceivedRequest, startWebhookReceiver } from "@/scripts/test-support/webhook-receiver";
import { createWebhookEndpoint } from "./create-webhook-endpoint";
import { deliverDueWebhooks } from "./deliver-due-webhooks";
import { sendTestEvent } from "./send-test-event";
import { updateWebhookEndpoint } from "./update-webhook-endpoint";

// The STRIPE adapter's promise, end to end: a real paid invoice on a Hardhat devnet, delivered by
// the normal worker over real HTTP to a handler copied from Stripe's docs, run as its own process.
const devnet = testDevnetForFile({ confirmations: 1 });

const handlers: ChildProcess[] = [];
afterAll(async () => {
  for (const handler of handlers) handler.kill();
});

/** Starts ./stripe-docs-handler/server.js with the endpoint's secret; resolves with its URL. */
async function startStripeDocsHandler(secret: string, ordersFile: string): Promise<string> {
  const server = path.resolve(
    import.meta.dirname,
    "../../scripts/test-support/stripe-docs-handler/server.js",
  );
  const child = spawn(process.execPath, [server], {
    env: {
      ...process.env,
      PORT: "0",
      STRIPE_SECRET_KEY: "sk_test_unused",
      STRIPE_WEBHOOK_SECRET: secret,
      ORDERS_FILE: ordersFile,
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  handlers.push(child);
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      const match = /Running on port (\d+)/.exec(chunk.toString());
      if (match) resolve(match[1]);
    });
    child.on("exit", (code) => reject(new Error(`the handler exited with ${code}`)));
  });
  return `http://127.0.0.1:${port}/webhook`;
}

async function stripeEndpoint(organizationId: string) {
  const { endpoint, signingSecret } = await createWebhookEndpoint(db(), organizationId, {
    name: "Existing Stripe handler",
    url: "http://127.0.0.1:9/webhook",
    adapter: "STRIPE",
    enabled: true,
  });
  return { endpoint, signingSecret };
}

/** A refund of part of a paid invoice, moved to SUCCEEDED as the signer records a confirmed transfer. */
async function refundOnChain(organizationId: string, invoiceId: string, amount: string) {
  const { refund } = await createRefund(db(), {
    organizationId,
    request: { invoiceId, amount, destination: "0x52908400098527886E0F7030069857D2E4169EE7" },
    // An owner in the dashboard: an API key's named address would wait for one.
    requestedBy: { kind: "user", name: "owner@example.com", decision: "allow" },
    idempotency: null,
    reader: null,
  });
  if (!refund) throw new Error("no refund");
  return db().$transaction(async (tx) => {
    let status = refund.status;
    for (const step of ["submit", "confirm"] as const) status = nextRefundStatus(status, step) ?? status;
    const succeeded = await tx.refund.update({
      where: { id: refund.id },
      data: { status, txHash: `0x${"7".repeat(64)}`, submittedAt: new Date(), confirmedAt: new Date() },
    });
    await recordRefundEvent(tx, succeeded, "refund.succeeded");
    return succeeded;
  });
}

async function startOrder(organizationId: string, order: string, cart: string) {
  const created = await createCheckoutSession(db(), {
    organizationId,
    request: {
      mode: "standalone",
      amount: "25.50",
      currency: "EUR",
      clientReferenceId: order,
      customerEmail: "ada@example.com",
      customerName: "Ada Buyer",
      metadata: { cart },
      expiresInMinutes: 60,
    },
    idempotency: null,
  });
  return startPayment(db(), {
    checkoutSessionId: (created.body as { id: string }).id,
    network: "devnet",
    token: "USDC",
  });
}

describe("STRIPE adapter with a handler from Stripe's docs", () => {
  it("fulfils a paid order once and takes the unpaid, failed and refund branches, without a line changed", async () => {
    const { organization } = await createTestOrganization();
    const { endpoint, signingSecret } = await stripeEndpoint(organization.id);
    const ordersFile = path.join(mkdtempSync(path.join(tmpdir(), "stripe-docs-")), "orders.jsonl");
    const url = await startStripeDocsHandler(signingSecret, ordersFile);
    await updateWebhookEndpoint(db(), organization.id, endpoint.id, { url });
    const network = config().networks[0];
    // Each event is delivered before the next happens, as the worker does when woken on commit.
    const deliver = () => deliverDueWebhooks(db(), { now: new Date(Date.now() + 1000) });

    const paid = await startOrder(organization.id, "order-1001", "cart-1");
    await deliver();
    await payInvoiceOnDevnet(db(), paid.id, {});
    await scanNetwork(db(), network, devnet.client);
    expect((await db().invoice.findUniqueOrThrow({ where: { id: paid.id } })).status).toBe("CONFIRMED");
    await deliver();
    // Part of the order comes back: created (a Stripe refund.created the handler ignores), then
    // confirmed on chain as the signer records it (charge.refunded).
    const refund = await refundOnChain(organization.id, paid.id, "10.2");
    await deliver();

    await startOrder(organization.id, "order-1002", "cart-2");
    await deliver();
    await markOverdueInvoices(db(), new Date(Date.now() + invoiceDeadlineMs + 1000));
    await deliver();

    const deliveries = await db().webhookDelivery.findMany({
      where: { endpointId: endpoint.id },
      include: { event: true },
    });
    expect(deliveries.map((delivery) => [delivery.event.type, delivery.status]).sort()).toEqual([
      ["invoice.created", "DELIVERED"],
      ["invoice.created", "DELIVERED"],
      ["invoice.overdue", "DELIVERED"],
      ["payment.confirmed", "DELIVERED"],
      ["refund.created", "DELIVERED"],
      ["refund.succeeded", "DELIVERED"],
    ]);
    const paidInvoice = await db().invoice.findUniqueOrThrow({ where: { id: paid.id } });
    const orders = readFileSync(ordersFile, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    const customer = { email: "ada@example.com", amount: 2550, currency: "eur" };
    expect(orders).toEqual([
      { action: "created", order: "order-1001", cart: "cart-1", paymentStatus: "unpaid", ...customer },
      { action: "fulfilled", order: "order-1001", cart: "cart-1", paymentStatus: "paid", ...customer },
      {
        action: "refunded",
        cart: "cart-1",
        email: "ada@example.com",
        amount: 2550,
        // 10.2 of the 25.50 EUR order's USDC, at its frozen rate, in cents.
        amountRefunded: new Money("10.2")
          .div(paidInvoice.rate.toString())
          .toDecimalPlaces(2, Money.ROUND_HALF_UP)
          .mul(100)
          .toNumber(),
        fullyRefunded: false,
        currency: "eur",
        transaction: refund.txHash,
      },
      { action: "created", order: "order-1002", cart: "cart-2", paymentStatus: "unpaid", ...customer },
      { action: "emailed", order: "order-1002", cart: "cart-2", paymentStatus: "unpaid", ...customer },
    ]);
  });

  it("answers 400 to a delivery signed with another endpoint's secret", async () => {
    const { organization } = await createTestOrganization();
    const { endpoint } = await stripeEndpoint(organization.id);
    const other = await stripeEndpoint(organization.id);
    await updateWebhookEndpoint(db(), organization.id, other.endpoint.id, { enabled: false });
    const ordersFile = path.join(mkdtempSync(path.join(tmpdir(), "stripe-docs-")), "orders.jsonl");
    const url = await startStripeDocsHandler(other.signingSecret, ordersFile);
    await updateWebhookEndpoint(db(), organization.id, endpoint.id, { url });
    const event = await sendTestEvent(db(), organization.id, endpoint.id, "payment.confirmed");
    await deliverDueWebhooks(db(), { now: new Date(Date.now() + 1000) });
    const delivery = await db().webhookDelivery.findFirstOrThrow({
      where: { eventId: event.id },
      include: { attempts: true },
    });
    expect(delivery.status).toBe("FAILED");
    expect(delivery.attempts[0]).toMatchObject({ httpStatus: 400 });
    expect(delivery.attempts[0].responseBody).toContain("Webhook Error");
  });
});

/** The events a receiver got, each verified as a Stripe handler verifies it. */
function verifiedStripeEvents(received: ReceivedRequest[], secret: string) {
  const stripe = new Stripe("sk_test_unused");
  return received.map((request) =>
    stripe.webhooks.constructEvent(request.rawBody, request.headers["stripe-signature"] as string, secret),
  );
}

describe("STRIPE adapter: test events", () => {
  it.each<[(typeof eventTypes)[number], string, string]>([
    ["invoice.created", "checkout.session.completed", "checkout.session"],
    ["payment.confirmed", "checkout.session.async_payment_succeeded", "checkout.session"],
    ["invoice.overdue", "checkout.session.async_payment_failed", "checkout.session"],
    ["subscription.overdue", "customer.subscription.updated", "subscription"],
    ["subscription.cancelled", "customer.subscription.deleted", "subscription"],
  ])("a test %s arrives as a verifiable Stripe %s", async (type, stripeType, object) => {
    const receiver = await startWebhookReceiver();
    try {
      const { organization } = await createTestOrganization();
      const { endpoint, signingSecret } = await stripeEndpoint(organization.id);
      await updateWebhookEndpoint(db(), organization.id, endpoint.id, { url: receiver.url });
      const event = await sendTestEvent(db(), organization.id, endpoint.id, type);
      await deliverDueWebhooks(db(), { now: new Date(Date.now() + 1000) });
      const [verified] = verifiedStripeEvents(receiver.received, signingSecret);
      expect(verified).toMatchObject({
        id: event.id,
        object: "event",
        type: stripeType,
        livemode: false,
        data: { object: { object, livemode: false } },
      });
    } finally {
      await receiver.close();
    }
  });
});

describe("STRIPE adapter: a subscription's events, built to the shared event contract", () => {
  it("arrive as the Checkout and Billing events a Stripe subscription integration handles", async () => {
    const receiver = await startWebhookReceiver();
    try {
      const { organization } = await createTestOrganization();
      const { endpoint, signingSecret } = await stripeEndpoint(organization.id);
      await updateWebhookEndpoint(db(), organization.id, endpoint.id, { url: receiver.url });
      const common = {
        amount: "19.99",
        amountUsd: "19.99",
        currency: "USD",
        rate: "1",
        paymentType: "RECURRING",
        network: "devnet",
        token: "USDC",
        tokenAmount: "19.99",
        checkoutSessionId: "ycs_first",
        merchantOrderId: null,
        metadata: { plan: "pro" },
        customer: { email: "ada@example.com", name: "Ada Buyer", clientReferenceId: "account-7" },
      };
      const subscription = (status: string, cancellationReason: string | null = null) => ({
        id: "sub_contract",
        status,
        currentPeriodStart: "2026-11-01T00:00:00.000Z",
        currentPeriodEnd: "2026-12-01T00:00:00.000Z",
        cancelAtPeriodEnd: false,
        cancellationReason,
        interval: "month",
        intervalCount: 1,
      });
      const steps: [EventType, string, Record<string, Prisma.InputJsonValue | null>][] = [
        ["invoice.created", "inv_first", { ...common, status: "AWAITING_PAYMENT" }],
        [
          "payment.confirmed",
          "inv_first",
          { ...common, status: "CONFIRMED", subscription: subscription("ACTIVE") },
        ],
        [
          "invoice.created",
          "inv_renewal",
          { ...common, status: "AWAITING_PAYMENT", subscription: subscription("ACTIVE") },
        ],
        [
          "invoice.overdue",
          "inv_renewal",
          { ...common, status: "OVERDUE", subscription: subscription("ACTIVE") },
        ],
        [
          "subscription.overdue",
          "inv_renewal",
          { ...common, status: "OVERDUE", subscription: subscription("PAST_DUE") },
        ],
        [
          "subscription.cancelled",
          "inv_renewal",
          { ...common, status: "OVERDUE", subscription: subscription("CANCELLED", "unpaid") },
        ],
      ];
      for (const [type, invoiceId, data] of steps) {
        await db().$transaction((tx) =>
          recordEvent(tx, { organizationId: organization.id, type, invoiceId, data }),
        );
        await deliverDueWebhooks(db(), { now: new Date(Date.now() + 1000) });
      }
      const received = verifiedStripeEvents(receiver.received, signingSecret).map((event) => ({
        type: event.type,
        object: event.data.object as unknown as Record<string, unknown>,
      }));
      expect(received.map(({ type, object }) => [type, object.object, object.id, object.status])).toEqual([
        ["checkout.session.completed", "checkout.session", "ycs_first", "complete"],
        ["invoice.paid", "invoice", "inv_first", "paid"],
        ["invoice.finalized", "invoice", "inv_renewal", "open"],
        ["invoice.payment_failed", "invoice", "inv_renewal", "open"],
        ["customer.subscription.updated", "subscription", "sub_contract", "past_due"],
        ["customer.subscription.deleted", "subscription", "sub_contract", "canceled"],
      ]);
      expect(received[0].object).toMatchObject({
        mode: "subscription",
        payment_status: "unpaid",
        client_reference_id: "account-7",
        invoice: "inv_first",
        amount_total: 1999,
        metadata: { plan: "pro" },
      });
      expect(received[1].object).toMatchObject({
        amount_paid: 1999,
        parent: { subscription_details: { subscription: "sub_contract" } },
        metadata: { plan: "pro" },
      });
      expect(received[5].object).toMatchObject({ cancellation_details: { reason: "payment_failed" } });
    } finally {
      await receiver.close();
    }
  });
});
