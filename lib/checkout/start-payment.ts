import { findToken, type NetworkConfig, type TokenConfig } from "../chains/networks";
import { config } from "../config";
import type { Db } from "../db/client";
import { conflict, invalidRequest, notFound } from "../errors";
import { transactWithEvents } from "../events/transact-with-events";
import type { CheckoutSession, Invoice } from "../generated/prisma/client";
import type { Locale } from "../i18n/locales";
import { allocateDepositAddresses } from "../payments/allocate-deposit-address";
import type { StartPaymentInput } from "../payments/payment-schemas";
import { priceInvoice } from "../payments/price-invoice";
import { beginPayment, createSessionInvoice, sessionExpired } from "./create-session-invoice";

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

/** The configured network and token a payment is asked on; a 400 naming the field when either is not. */
export function paymentChoice(input: { network: string; token: string }) {
  const network = config().networks.find((candidate) => candidate.id === input.network);
  if (!network)
    throw invalidRequest("network_unavailable", `Network ${input.network} is not available here.`, "network");
  const token = findToken(network, input.token);
  if (!token)
    throw invalidRequest("token_unavailable", `${input.token} is not accepted on ${network.name}.`, "token");
  return { network, token };
}

const withSessionStatus = { checkoutSession: { select: { status: true } } } as const;

/**
 * The buyer starts paying a session: one invoice per session, with its own deposit address and a
 * frozen quote (amount, rate, USD amount, time and source). The session row is locked, so two starts cannot both create an invoice; a repeat
 * of the same choice returns the invoice already made. `locale`, the buyer's language on the
 * hosted page, is kept on the session for their receipts.
 */
export async function startPayment(
  database: Db,
  input: StartPaymentInput,
  now = new Date(),
  locale: Locale | null = null,
) {
  const { network, token } = paymentChoice(input);

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
    if (locale) await tx.checkoutSession.update({ where: { id: session.id }, data: { locale } });
    return createSessionInvoice(tx, {
      session,
      network,
      token,
      priced,
      depositAddress: async () => (await allocateDepositAddresses(tx, network.id))[0],
      now,
    });
  });
}
