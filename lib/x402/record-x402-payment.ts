import type { X402CosignedTransaction } from "../chains/x402-transaction-scheme";
import { buildCheckoutSession } from "../checkout/build-checkout-session";
import { createSessionInvoice } from "../checkout/create-session-invoice";
import type { Db, Tx } from "../db/client";
import { ServiceError } from "../errors";
import { transactWithEvents } from "../events/transact-with-events";
import { type CheckoutSession, Prisma, type X402Settlement } from "../generated/prisma/client";
import { newId } from "../ids";
import { x402ClosedMarginSeconds } from "./decide-x402-settlement";
import { sameAddress } from "./read-x402-payment";
import { refusePausedX402Network } from "./x402-fee-payer-breaker";
import { reserveX402Gas, type SettlementGasEstimates } from "./x402-gas";
import { refuseCoolingX402Payer } from "./x402-payer-cooldown";
import { paymentInProgress, paymentRefused } from "./x402-payment-errors";
import type { X402Quote } from "./x402-quote-token";
import type { X402Payable } from "./x402-requirements";
import { renewX402Lease } from "./x402-settler-lease";

/** An authorization's identity: its X402Settlement row's unique key (lowercase). */
export type X402SettlementKey = { network: string; asset: string; payer: string; nonce: string };

/**
 * What the payer signed, as its row keeps it: the amount in base units, when it stops being
 * valid, and a hash of all of it (a copy is the same payment only with this hash).
 */
export type X402Signed = {
  amount: string;
  validBefore: Date;
  hash: string;
  /** A payment by transaction: the transaction as we co-signed it, kept so anyone can send and decide it. */
  transaction?: X402CosignedTransaction;
};

/** The co-signed transaction a row was recorded with (X402Signed.transaction); none for an authorization's. */
export function recordedX402Transaction(row: X402Settlement): X402CosignedTransaction | undefined {
  const { transaction, signedTransaction, lastValidHeight, signedSlot } = row;
  if (!transaction || !signedTransaction || lastValidHeight === null || signedSlot === null) return undefined;
  return { payer: row.payer, id: transaction, signed: signedTransaction, lastValidHeight, slot: signedSlot };
}

const pricedFrom = (quote: X402Quote) => ({
  amountDue: quote.amountDue,
  rate: quote.rate,
  amountUsd: quote.amountUsd,
  quotedAt: new Date(quote.quotedAt),
  quoteSource: quote.quoteSource,
  quoteExpiresAt: quote.quoteExpiresAt ? new Date(quote.quoteExpiresAt) : null,
});

/**
 * The invoice this payment pays, in the caller's transaction: a paylink gets its session (as the
 * hosted page's start would make it) and both get the invoice at the quoted deposit address; a
 * session that already had an invoice keeps it, if it is still the one quoted and still open.
 */
async function invoiceFor(tx: Tx, quote: X402Quote, { network, token }: X402Payable, now: Date) {
  const depositAddress = async () => ({
    derivationIndex: quote.derivationIndex,
    depositAddress: quote.payTo,
    reference: quote.reference ?? null,
  });
  const priced = pricedFrom(quote);
  if (quote.resource.kind === "paylink") {
    const paylink = await tx.paylink.findFirst({ where: { id: quote.resource.id, enabled: true } });
    if (!paylink) throw paymentRefused("resource_unavailable", "This paylink is no longer available.");
    const session = await buildCheckoutSession(
      tx,
      paylink.organizationId,
      { mode: "paylink", paylinkId: paylink.id, expiresInMinutes: 60 },
      now,
      paylink,
    );
    return createSessionInvoice(tx, { session, network, token, priced, depositAddress, now, unstored: true });
  }
  const [session] = await tx.$queryRaw<CheckoutSession[]>`
    SELECT * FROM "CheckoutSession" WHERE "id" = ${quote.resource.id} FOR UPDATE`;
  if (!session) throw paymentRefused("resource_unavailable", "This checkout session no longer exists.");
  const invoice = await tx.invoice.findUnique({ where: { checkoutSessionId: session.id } });
  if (!invoice && !quote.invoiceId)
    return createSessionInvoice(tx, { session, network, token, priced, depositAddress, now });
  const open = invoice?.status === "AWAITING_PAYMENT" || invoice?.status === "PARTIALLY_PAID";
  if (
    !invoice ||
    invoice.id !== quote.invoiceId ||
    !open ||
    !sameAddress(invoice.depositAddress, quote.payTo)
  )
    throw paymentRefused("quote_stale", "This checkout's payment changed since the quote; ask again.");
  // Each x402 payment pays all that is due: one settled already leaves nothing to pay. One still
  // settling may yet fail: a 402 would have the agent sign again and again, so it waits (503).
  const paying = await tx.x402Settlement.findMany({
    where: { invoiceId: invoice.id, status: { in: ["SETTLING", "SETTLED"] } },
    select: { status: true },
  });
  if (paying.some(({ status }) => status === "SETTLED"))
    throw paymentRefused("quote_used", "This checkout is already paid; ask again.");
  if (paying.length > 0) throw paymentInProgress();
  return invoice;
}

const isUniqueViolation = (error: unknown) =>
  error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";

/**
 * Verified, the payment gets its invoice and its X402Settlement row in one transaction, so the
 * watcher follows the deposit address before any transfer. The transaction first takes a lock on
 * the payer: a copy of the authorization waits there, then finds the row and answers its result
 * instead, and another authorization of the payer's is refused while one of its settlements is
 * under way, or was refused for the payer's funds and is still valid (`payer_busy`), so one
 * balance backs one settlement at a time, and a payer whose transaction failed on chain is refused
 * during its cooldown (`payer_cooldown`, x402-payer-cooldown.ts). Then the
 * organization's gas budget decides, under its own lock (`reserveX402Gas`).
 */
export async function recordX402Payment(
  database: Db,
  input: {
    quote: X402Quote;
    asset: X402Payable;
    key: X402SettlementKey;
    signed: X402Signed;
    gasEstimates: SettlementGasEstimates;
    now: Date;
  },
): Promise<{ row: X402Settlement; created: boolean }> {
  const { quote, asset, key, signed, gasEstimates, now } = input;
  const { network, asset: token, payer } = key;
  try {
    return await transactWithEvents(database, async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`x402:${network}:${token}:${payer}`}))`;
      // One refused for the payer's funds is FAILED at once, but its authorization stays valid
      // until its window closes: topped up, the payer's balance could still back it. This
      // authorization's own row and the payer's busy ones are read in one statement.
      const open = new Date(now.getTime() - x402ClosedMarginSeconds * 1000);
      const rows = await tx.x402Settlement.findMany({
        where: {
          network,
          asset: token,
          payer,
          OR: [
            { nonce: key.nonce },
            { status: "SETTLING" },
            { status: "FAILED", errorReason: "insufficient_funds", validBefore: { gt: open } },
          ],
        },
      });
      const existing = rows.find((row) => row.nonce === key.nonce);
      if (existing) return { row: existing, created: false };
      if (rows.length > 0)
        throw paymentRefused(
          "payer_busy",
          "Another payment from this payer is still being settled, or may still land; send this one again once it is settled or expired.",
        );
      await refuseCoolingX402Payer(tx, network, payer, now);
      await refusePausedX402Network(tx, network, now);
      const invoice = await invoiceFor(tx, quote, asset, now);
      await reserveX402Gas(tx, invoice.organizationId, gasEstimates, now);
      const row = await tx.x402Settlement.create({
        data: {
          id: newId("x402Settlement"),
          organizationId: invoice.organizationId,
          invoiceId: invoice.id,
          resourceKind: quote.resource.kind,
          ...key,
          amount: signed.amount,
          payTo: quote.payTo.toLowerCase(),
          // At most the quote's window away (checkValidityWindow, or a blockhash's life).
          validBefore: signed.validBefore,
          authorizationHash: signed.hash,
          ...(signed.transaction
            ? {
                transaction: signed.transaction.id,
                signedTransaction: signed.transaction.signed,
                lastValidHeight: signed.transaction.lastValidHeight,
                signedSlot: signed.transaction.slot,
              }
            : {}),
          createdAt: now,
        },
      });
      // The lease starts at the database's clock, the one takeovers compare with.
      await renewX402Lease(tx, row.id);
      return { row, created: true };
    });
  } catch (error) {
    // Another authorization paid this quote first: its deposit address is that invoice's now.
    if (isUniqueViolation(error))
      throw paymentRefused("quote_used", "This quote was already paid by another payment; ask again.");
    // The session can no longer be paid (expired meanwhile): the fresh quote says why (409, 410).
    if (error instanceof ServiceError && error.status === 400)
      throw paymentRefused(error.code, error.message);
    throw error;
  }
}
