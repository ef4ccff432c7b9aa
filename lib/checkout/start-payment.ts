import { findToken, type NetworkConfig, type TokenConfig } from "../chains/networks";
import { config } from "../config";
import type { Db } from "../db/client";
import { conflict, invalidRequest, notFound } from "../errors";
import { recordEvent } from "../events/record-event";
import { serializeInvoiceEvent } from "../events/serialize-invoice-event";
import { transactWithEvents } from "../events/transact-with-events";
import type { CheckoutSession, Invoice } from "../generated/prisma/client";
import { newId } from "../ids";
import { allocateDepositAddresses } from "../payments/allocate-deposit-address";
import type { StartPaymentInput } from "../payments/payment-schemas";
import { priceInvoice } from "../payments/price-invoice";
import { transitionSession } from "../session-state/session-state";

/** First-payment invoices are due within an hour (docs/api.md, "Payments (hosted checkout)"). */
export const invoiceDeadlineMs = 60 * 60 * 1000;

/**
 * A repeat of the same choice gets the invoice already made; another choice is a conflict. An
 * invoice whose session was withdrawn (a cancelled subscription's renewal) is paid no more.
 */
function sameChoice(
  { checkoutSession, ...existing }: Invoice & { checkoutSession: { status: CheckoutSession["status"] } },
  network: NetworkConfig,
  token: TokenConfig,
): Invoice {
  if (checkoutSession.status === "EXPIRED") throw sessionExpired();
  if (existing.network === network.id && existing.token === token.symbol) return existing;
  throw conflict(
    "payment_already_started",
    "Payment for this checkout already started with another network or token.",
  );
}

const sessionExpired = () =>
  invalidRequest("session_expired", "This checkout has expired.", "checkoutSessionId");

const withSessionStatus = { checkoutSession: { select: { status: true } } } as const;

function beginPayment(session: CheckoutSession, now: Date) {
  const begin = transitionSession(session, "begin_payment", now);
  if (begin.ok) return begin;
  if (begin.status === "EXPIRED") throw sessionExpired();
  throw invalidRequest("session_not_open", "This checkout can no longer be paid.", "checkoutSessionId");
}

/**
 * The buyer starts paying a session: one invoice per session, with its own deposit address and a
 * frozen quote (amount, rate, USD amount, time and source). The session row is locked, so two starts cannot both create an invoice; a repeat
 * of the same choice returns the invoice already made.
 */
export async function startPayment(database: Db, input: StartPaymentInput, now = new Date()) {
  const network = config().networks.find((candidate) => candidate.id === input.network);
  if (!network)
    throw invalidRequest("network_unavailable", `Network ${input.network} is not available here.`, "network");
  const token = findToken(network, input.token);
  if (!token)
    throw invalidRequest("token_unavailable", `${input.token} is not accepted on ${network.name}.`, "token");

  const existing = await database.invoice.findUnique({
    where: { checkoutSessionId: input.checkoutSessionId },
    include: withSessionStatus,
  });
  if (existing) return sameChoice(existing, network, token);
  const unlocked = await database.checkoutSession.findUnique({ where: { id: input.checkoutSessionId } });
  if (!unlocked) throw notFound("checkout session", "checkoutSessionId");
  beginPayment(unlocked, now);
  // Priced before the transaction: feed reads are network round trips, and the session lock
  // should not wait on them. The amount and currency of a session never change.
  const priced = await priceInvoice(
    { amount: unlocked.amount.toString(), currency: unlocked.currency },
    network,
    token,
    now,
  );

  return transactWithEvents(database, async (tx) => {
    const [session] = await tx.$queryRaw<CheckoutSession[]>`
      SELECT * FROM "CheckoutSession" WHERE "id" = ${input.checkoutSessionId} FOR UPDATE`;
    if (!session) throw notFound("checkout session", "checkoutSessionId");

    const raced = await tx.invoice.findUnique({
      where: { checkoutSessionId: session.id },
      include: withSessionStatus,
    });
    if (raced) return sameChoice(raced, network, token);
    const begin = beginPayment(session, now);
    const [address] = await allocateDepositAddresses(tx, network.id);
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
    // OPEN -> PROCESSING (the lock above) -> COMPLETED, now that the invoice exists.
    const completed = transitionSession({ ...session, status: begin.status }, "invoice_created", now);
    await tx.checkoutSession.update({ where: { id: session.id }, data: { status: completed.status } });
    await recordEvent(tx, {
      organizationId: session.organizationId,
      type: "invoice.created",
      invoiceId: invoice.id,
      data: serializeInvoiceEvent(invoice, session),
    });
    return invoice;
  });
}
