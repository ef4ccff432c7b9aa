import { getPublicCheckoutSession } from "../checkout/get-public-checkout-session";
import type { Db } from "../db/client";
import { ServiceError } from "../errors";
import type { Invoice, Payment, X402Settlement } from "../generated/prisma/client";
import type { X402ResourceRef } from "./find-x402-resource";
import { sameAddress } from "./read-x402-payment";
import { paymentRefused, settlementPending } from "./x402-payment-errors";
import type { X402Quote } from "./x402-quote-token";
import { takeOverStaleX402Settlement } from "./x402-settler-lease";

export type X402Settled = {
  settlement: X402Settlement;
  session: Awaited<ReturnType<typeof getPublicCheckoutSession>>;
  invoice: Invoice & { payments: Payment[] };
};

/** Settles a row taken over from a settler that stopped renewing its lease. */
export type RecoverX402Settlement = (row: X402Settlement) => Promise<X402Settlement>;

/** How long a copy of an authorization waits for the first copy's settlement before answering 503. */
const copyWaitMs = 60_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The authorization's row once decided, read by short queries with backoff: no connection and no
 * lock is held in between, so copies waiting on one settlement cost the pool nothing. A row whose
 * settler stopped renewing its lease is taken over and settled (`recover`).
 */
async function awaitSettlement(
  database: Db,
  id: string,
  recover: RecoverX402Settlement,
): Promise<X402Settlement> {
  const deadline = Date.now() + copyWaitMs;
  for (let delay = 50; ; delay = Math.min(delay * 2, 1000)) {
    const row = await database.x402Settlement.findUniqueOrThrow({ where: { id } });
    if (row.status !== "SETTLING") return row;
    // The database's clock decides whether the lease lapsed (one statement), not ours.
    const taken = await takeOverStaleX402Settlement(database, id);
    if (taken) return recover(taken);
    if (Date.now() > deadline) return row;
    await sleep(delay);
  }
}

/** The paid session and invoice; a failed payment's 402; a pending one's 503. */
export async function x402SettlementResult(database: Db, settlement: X402Settlement): Promise<X402Settled> {
  if (settlement.status === "SETTLING") throw settlementPending();
  if (settlement.status === "FAILED") {
    const reason = settlement.errorReason ?? "settlement_failed";
    throw paymentRefused(reason, `The payment was not settled (${reason}).`);
  }
  const invoice = await database.invoice.findUniqueOrThrow({
    where: { id: settlement.invoiceId },
    include: { payments: true },
  });
  const session = await getPublicCheckoutSession(database, invoice.checkoutSessionId);
  return { settlement, session, invoice };
}

/**
 * A known authorization answers its result only at the resource and deposit address it paid:
 * sent to another x402 URL (with a quote for that one) it is refused, never answered with the
 * first payment's result.
 */
async function checkSameResource(database: Db, row: X402Settlement, ref: X402ResourceRef, quote: X402Quote) {
  const invoice = await database.invoice.findUniqueOrThrow({
    where: { id: row.invoiceId },
    select: { checkoutSessionId: true, reference: true, checkoutSession: { select: { paylinkId: true } } },
  });
  const paid =
    ref.kind === "paylink"
      ? row.resourceKind === "paylink" && invoice.checkoutSession.paylinkId === ref.id
      : row.resourceKind === "checkout_session" && invoice.checkoutSessionId === ref.id;
  // Where invoices share payTo (Solana's receiving wallet), the reference tells their quotes apart.
  const sameReceiver = sameAddress(row.payTo, quote.payTo) && (quote.reference ?? null) === invoice.reference;
  if (!paid || !sameReceiver)
    throw new ServiceError(
      409,
      "invalid_request_error",
      "authorization_used",
      "This authorization was already presented for another resource; sign a new payment for this one.",
    );
}

/**
 * A copy of an authorization already recorded: the first copy's result, awaited (a settler that
 * stopped is taken over by `recover`), at the resource it paid only.
 */
export async function awaitX402Settlement(
  database: Db,
  row: X402Settlement,
  ref: X402ResourceRef,
  quote: X402Quote,
  recover: RecoverX402Settlement,
): Promise<X402Settled> {
  await checkSameResource(database, row, ref, quote);
  return x402SettlementResult(database, await awaitSettlement(database, row.id, recover));
}
