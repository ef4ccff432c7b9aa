import type { NetworkConfig, TokenConfig } from "../chains/networks";
import type { Tx } from "../db/client";
import { invalidRequest } from "../errors";
import { recordEvent } from "../events/record-event";
import { serializeInvoiceEvent } from "../events/serialize-invoice-event";
import type { CheckoutSession, Prisma } from "../generated/prisma/client";
import { newId } from "../ids";
import type { PricedInvoice } from "../payments/price-invoice";
import { transitionSession } from "../session-state/session-state";

/** First-payment invoices are due within an hour (docs/api.md, "Payments (hosted checkout)"). */
export const invoiceDeadlineMs = 60 * 60 * 1000;

export const sessionExpired = () =>
  invalidRequest("session_expired", "This checkout has expired.", "checkoutSessionId");

/** OPEN -> PROCESSING, or the buyer's 400 saying why this session cannot be paid. */
export function beginPayment(session: CheckoutSession, now: Date) {
  const begin = transitionSession(session, "begin_payment", now);
  if (begin.ok) return begin;
  if (begin.status === "EXPIRED") throw sessionExpired();
  throw invalidRequest("session_not_open", "This checkout can no longer be paid.", "checkoutSessionId");
}

/**
 * The session's one invoice, in the caller's transaction (which holds the session's lock): the
 * frozen quote, a deposit address from `depositAddress` (asked only once the session may be paid,
 * so a refused start uses no index), the session completed and `invoice.created` recorded. The
 * hosted page's start (lib/checkout/start-payment.ts) and an x402 payment (lib/x402) share it.
 * `unstored`: a session built in this transaction and not inserted yet (an x402 payment of a
 * paylink), inserted here already completed rather than inserted and then updated.
 */
export async function createSessionInvoice(
  tx: Tx,
  input: {
    session: CheckoutSession;
    network: NetworkConfig;
    token: TokenConfig;
    priced: PricedInvoice;
    depositAddress: () => Promise<{
      derivationIndex: number;
      depositAddress: string;
      reference?: string | null;
    }>;
    now: Date;
    unstored?: boolean;
  },
) {
  const { session, network, token, priced, now } = input;
  const begin = beginPayment(session, now);
  const address = await input.depositAddress();
  // OPEN -> PROCESSING (under the session's lock, or new) -> COMPLETED, with the invoice below.
  const completed = transitionSession({ ...session, status: begin.status }, "invoice_created", now);
  if (input.unstored)
    await tx.checkoutSession.create({
      data: { ...session, status: completed.status, metadata: session.metadata as Prisma.InputJsonObject },
    });
  const invoice = await tx.invoice.create({
    data: {
      id: newId("invoice"),
      organizationId: session.organizationId,
      checkoutSessionId: session.id,
      network: network.id,
      token: token.symbol,
      ...address,
      amountDue: priced.amountDue,
      pricingAmount: session.amount,
      pricingCurrency: session.currency,
      rate: priced.rate,
      amountUsd: priced.amountUsd,
      quotedAt: priced.quotedAt,
      quoteSource: priced.quoteSource,
      quoteExpiresAt: priced.quoteExpiresAt,
      deadline: new Date(now.getTime() + invoiceDeadlineMs),
      createdAt: now,
    },
  });
  if (!input.unstored)
    await tx.checkoutSession.update({ where: { id: session.id }, data: { status: completed.status } });
  await recordEvent(tx, {
    organizationId: session.organizationId,
    type: "invoice.created",
    invoiceId: invoice.id,
    data: serializeInvoiceEvent(invoice, session),
  });
  return invoice;
}
