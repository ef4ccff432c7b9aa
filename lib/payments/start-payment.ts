import { findToken, type TokenConfig } from "../chains/networks";
import { transitionSession } from "../checkout/session-state";
import { config } from "../config";
import type { Db } from "../db/client";
import { conflict, invalidRequest, notFound } from "../errors";
import { recordEvent } from "../events/record-event";
import { transactWithEvents } from "../events/transact-with-events";
import type { CheckoutSession } from "../generated/prisma/client";
import { newId } from "../ids";
import { allocateDepositAddresses } from "./allocate-deposit-address";
import type { StartPaymentInput } from "./payment-schemas";
import { QuoteUnavailable, quote } from "./quote";
import { serializeInvoiceEvent } from "./serialize-invoice-event";

/** First-payment invoices are due within an hour (spec 6.5). */
export const invoiceDeadlineMs = 60 * 60 * 1000;

/** The session's price in the token; a pair the rate table lacks is the buyer's 400, not a 500. */
function priceSession(session: CheckoutSession, token: TokenConfig) {
  try {
    return quote({ amount: session.amount.toString(), currency: session.currency }, token, config().rates);
  } catch (error) {
    if (!(error instanceof QuoteUnavailable)) throw error;
    throw invalidRequest(
      "quote_unavailable",
      `${token.symbol} cannot be priced in ${session.currency} here; choose another token.`,
      "token",
    );
  }
}

/**
 * The buyer starts paying a session: one invoice per session, with its own deposit address and a
 * frozen quote. The session row is locked, so two starts cannot both create an invoice; a repeat
 * of the same choice returns the invoice already made.
 */
export async function startPayment(database: Db, input: StartPaymentInput, now = new Date()) {
  const network = config().networks.find((candidate) => candidate.id === input.network);
  if (!network)
    throw invalidRequest("network_unavailable", `Network ${input.network} is not available here.`, "network");
  const token = findToken(network, input.token);
  if (!token)
    throw invalidRequest("token_unavailable", `${input.token} is not accepted on ${network.name}.`, "token");

  return transactWithEvents(database, async (tx) => {
    const [session] = await tx.$queryRaw<CheckoutSession[]>`
      SELECT * FROM "CheckoutSession" WHERE "id" = ${input.checkoutSessionId} FOR UPDATE`;
    if (!session) throw notFound("checkout session", "checkoutSessionId");

    const existing = await tx.invoice.findUnique({ where: { checkoutSessionId: session.id } });
    if (existing) {
      if (existing.network === network.id && existing.token === token.symbol) return existing;
      throw conflict(
        "payment_already_started",
        "Payment for this checkout already started with another network or token.",
      );
    }
    const begin = transitionSession(session, "begin_payment", now);
    if (!begin.ok) {
      throw invalidRequest(
        begin.status === "EXPIRED" ? "session_expired" : "session_not_open",
        begin.status === "EXPIRED" ? "This checkout has expired." : "This checkout can no longer be paid.",
        "checkoutSessionId",
      );
    }
    const priced = priceSession(session, token);
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
      data: serializeInvoiceEvent(invoice, session, priced.amountUsd),
    });
    return invoice;
  });
}
