import { findToken } from "../chains/networks";
import { checkoutUrl, config } from "../config";
import type { Tx } from "../db/client";
import { insertRows } from "../db/insert-rows";
import { recordEvents } from "../events/record-event";
import { serializeInvoiceEvent } from "../events/serialize-invoice-event";
import type { CheckoutSession, Invoice, Subscription } from "../generated/prisma/client";
import { newId } from "../ids";
import { type AllocatedReceiver, allocateDepositAddresses } from "../payments/allocate-deposit-address";
import { priceInvoice } from "../payments/price-invoice";
import { subscriptionEventObject } from "../recurring/subscription-event-object";
import { periodBounds, renewalDeadlineMs } from "../recurring/subscription-periods";

export type RenewalNotice = {
  to: string;
  url: string;
  subscription: Subscription;
  periodStart: Date;
  periodEnd: Date;
};

function renewalAsset(subscription: Subscription) {
  const network = config().networks.find((candidate) => candidate.id === subscription.network);
  const token = network && findToken(network, subscription.token);
  if (!network || !token)
    throw new Error(`${subscription.network}/${subscription.token} is no longer configured; renewal held`);
  return { network, token };
}

/**
 * Issues the invoice of each subscription's next period: its own checkout session (so it has a
 * hosted payment page), a fresh deposit address, a quote made now and a 24-hour deadline, and
 * `invoice.created` carrying the page's address. Batch-wise, because thousands fall due at once:
 * one quote per distinct price, one counter update per network, and bulk inserts. The
 * (subscription, period) key makes a second issue fail instead of billing twice. Returns the
 * invoices by subscription id and the email notices for customers whose address is known.
 */
export async function issueRenewalInvoices(tx: Tx, subscriptions: Subscription[], now: Date) {
  const invoices = new Map<string, Invoice>();
  const notices: RenewalNotice[] = [];
  if (subscriptions.length === 0) return { invoices, notices };
  const deadline = new Date(now.getTime() + renewalDeadlineMs);
  const quotes = new Map<string, ReturnType<typeof priceInvoice>>();
  const addresses = new Map<string, AllocatedReceiver[]>();
  for (const subscription of subscriptions) {
    const { network } = renewalAsset(subscription);
    if (!addresses.has(network.id)) {
      const count = subscriptions.filter((other) => other.network === network.id).length;
      addresses.set(network.id, await allocateDepositAddresses(tx, network.id, count));
    }
  }
  const rows = await Promise.all(
    subscriptions.map(async (subscription) => {
      const { network, token } = renewalAsset(subscription);
      const price = { amount: subscription.amount.toString(), currency: subscription.currency };
      const quoteKey = `${network.id}/${token.symbol}/${price.currency}/${price.amount}`;
      if (!quotes.has(quoteKey)) quotes.set(quoteKey, priceInvoice(price, network, token, now));
      const priced = await (quotes.get(quoteKey) as ReturnType<typeof priceInvoice>);
      const address = addresses.get(network.id)?.shift();
      if (!address) throw new Error(`no deposit address allocated on ${network.id}`);
      const periodIndex = subscription.currentPeriodIndex + 1;
      const period = periodBounds(
        subscription.anchor,
        subscription.interval,
        subscription.intervalCount,
        periodIndex,
      );
      const session = {
        id: newId("checkoutSession"),
        organizationId: subscription.organizationId,
        status: "COMPLETED" as const,
        paylinkId: subscription.paylinkId,
        amount: subscription.amount,
        currency: subscription.currency,
        description: subscription.description,
        merchantOrderId: subscription.merchantOrderId,
        customerEmail: subscription.customerEmail,
        customerName: subscription.customerName,
        clientReferenceId: subscription.clientReferenceId,
        metadata: subscription.metadata,
        recurringInterval: subscription.interval,
        recurringIntervalCount: subscription.intervalCount,
        expiresAt: deadline,
        createdAt: now,
      };
      const invoice = {
        id: newId("invoice"),
        organizationId: subscription.organizationId,
        checkoutSessionId: session.id,
        network: network.id,
        token: token.symbol,
        ...address,
        amountDue: priced.amountDue,
        pricingAmount: subscription.amount,
        pricingCurrency: subscription.currency,
        rate: priced.rate,
        amountUsd: priced.amountUsd,
        quotedAt: priced.quotedAt,
        quoteSource: priced.quoteSource,
        quoteExpiresAt: priced.quoteExpiresAt,
        deadline,
        subscriptionId: subscription.id,
        periodIndex,
        periodStart: period.start,
        periodEnd: period.end,
        createdAt: now,
      };
      return { subscription, session, invoice, period };
    }),
  );
  const stored = async <Row extends { id: string }>(table: "CheckoutSession" | "Invoice", data: object[]) =>
    new Map(
      (
        await insertRows<Row>(
          tx,
          table,
          data.map((row) => ({ ...row, updatedAt: now })),
        )
      ).map((row) => [row.id, row]),
    );
  const sessions = await stored<CheckoutSession>(
    "CheckoutSession",
    rows.map((row) => row.session),
  );
  const created = await stored<Invoice>(
    "Invoice",
    rows.map((row) => row.invoice),
  );
  const events = rows.map(({ subscription, session, invoice, period }) => {
    const storedSession = sessions.get(session.id) as CheckoutSession;
    const storedInvoice = created.get(invoice.id) as Invoice;
    invoices.set(subscription.id, storedInvoice);
    const url = checkoutUrl(session.id);
    if (subscription.customerEmail)
      notices.push({
        to: subscription.customerEmail,
        url,
        subscription,
        periodStart: period.start,
        periodEnd: period.end,
      });
    return {
      organizationId: subscription.organizationId,
      type: "invoice.created" as const,
      invoiceId: storedInvoice.id,
      data: {
        ...serializeInvoiceEvent(storedInvoice, storedSession, subscriptionEventObject(subscription)),
        hostedUrl: url,
      },
    };
  });
  await recordEvents(tx, events);
  return { invoices, notices };
}
