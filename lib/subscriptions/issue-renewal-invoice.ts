import { findToken } from "../chains/networks";
import { checkoutUrl, config } from "../config";
import type { Tx } from "../db/client";
import { recordEvent } from "../events/record-event";
import type { Prisma, Subscription } from "../generated/prisma/client";
import { newId } from "../ids";
import { allocateDepositAddresses } from "../payments/allocate-deposit-address";
import { priceInvoice } from "../payments/price-invoice";
import { serializeInvoiceEvent } from "../payments/serialize-invoice-event";
import { subscriptionEventObject } from "./serialize-subscription";
import { periodBounds, renewalDeadlineMs } from "./subscription-periods";

export type RenewalNotice = {
  to: string;
  url: string;
  subscription: Subscription;
  periodStart: Date;
  periodEnd: Date;
};

/**
 * Issues the invoice of the subscription's next period: its own checkout session (so it has a
 * hosted payment page), a fresh deposit address, a quote made now and a 24-hour deadline, and
 * `invoice.created` carrying the page's address. The (subscription, period) key makes a second
 * issue fail instead of billing twice. Returns the email notice when the customer's address is known.
 */
export async function issueRenewalInvoice(tx: Tx, subscription: Subscription, now: Date) {
  const network = config().networks.find((candidate) => candidate.id === subscription.network);
  const token = network && findToken(network, subscription.token);
  if (!network || !token)
    throw new Error(`${subscription.network}/${subscription.token} is no longer configured; renewal held`);
  const periodIndex = subscription.currentPeriodIndex + 1;
  const period = periodBounds(
    subscription.anchor,
    subscription.interval,
    subscription.intervalCount,
    periodIndex,
  );
  const priced = await priceInvoice(
    { amount: subscription.amount.toString(), currency: subscription.currency },
    network,
    token,
    now,
  );
  const deadline = new Date(now.getTime() + renewalDeadlineMs);
  const session = await tx.checkoutSession.create({
    data: {
      id: newId("checkoutSession"),
      organizationId: subscription.organizationId,
      status: "COMPLETED",
      paylinkId: subscription.paylinkId,
      amount: subscription.amount,
      currency: subscription.currency,
      description: subscription.description,
      merchantOrderId: subscription.merchantOrderId,
      customerEmail: subscription.customerEmail,
      customerName: subscription.customerName,
      clientReferenceId: subscription.clientReferenceId,
      metadata: subscription.metadata as Prisma.InputJsonObject,
      recurringInterval: subscription.interval,
      recurringIntervalCount: subscription.intervalCount,
      expiresAt: deadline,
      createdAt: now,
    },
  });
  const [address] = await allocateDepositAddresses(tx, network.id);
  const invoice = await tx.invoice.create({
    data: {
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
    },
  });
  const url = checkoutUrl(session.id);
  await recordEvent(tx, {
    organizationId: subscription.organizationId,
    type: "invoice.created",
    invoiceId: invoice.id,
    data: {
      ...serializeInvoiceEvent(invoice, session, subscriptionEventObject(subscription)),
      hostedUrl: url,
    },
  });
  const notice: RenewalNotice | null = subscription.customerEmail
    ? { to: subscription.customerEmail, url, subscription, periodStart: period.start, periodEnd: period.end }
    : null;
  return { invoice, notice };
}
