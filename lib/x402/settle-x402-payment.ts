import type { FacilitatorClient } from "@x402/core/server";
import {
  type PaymentPayload,
  type PaymentRequirements,
  SettleError,
  type SettleResponse,
  VerifyError,
  type VerifyResponse,
} from "@x402/core/types";
import { z } from "zod";
import { buildCheckoutSession } from "../checkout/build-checkout-session";
import { createSessionInvoice } from "../checkout/create-session-invoice";
import { getPublicCheckoutSession } from "../checkout/get-public-checkout-session";
import { config } from "../config";
import type { Db, Tx } from "../db/client";
import { ServiceError } from "../errors";
import { transactWithEvents } from "../events/transact-with-events";
import {
  type CheckoutSession,
  type Invoice,
  type Payment,
  Prisma,
  type X402Settlement,
} from "../generated/prisma/client";
import { newId } from "../ids";
import { log } from "../log";
import { metrics } from "../metrics/metrics";
import { x402FacilitatorClient } from "./facilitator-client";
import { findAuthorizationUse } from "./find-authorization-use";
import type { X402ResourceRef } from "./find-x402-resource";
import { x402Unavailable } from "./quote-x402-payment";
import { withdrawUnpaidX402Invoice } from "./withdraw-unpaid-x402-invoice";
import { readX402Quote, type X402Quote } from "./x402-quote-token";
import { findX402Payable, type X402Payable, x402Requirements } from "./x402-requirements";

/** A payment we do not take: the agent gets 402 again, with the reason and a fresh quote. */
export const paymentRefused = (code: string, message: string) =>
  new ServiceError(402, "invalid_request_error", code, message);

const hex = (bytes: number) => z.string().regex(new RegExp(`^0x[0-9a-fA-F]{${bytes * 2}}$`));
const uint = z.string().regex(/^[0-9]{1,78}$/);

// The `exact` scheme's EIP-3009 payload, as @x402/evm's client signs it (docs/api.md, "x402").
const paymentPayloadSchema = z.object({
  x402Version: z.literal(2),
  accepted: z.object({
    scheme: z.string(),
    network: z.string(),
    asset: z.string(),
    amount: z.string(),
    payTo: z.string(),
    maxTimeoutSeconds: z.number(),
    extra: z.object({ quote: z.string() }).loose(),
  }),
  payload: z.object({
    authorization: z.object({
      from: hex(20),
      to: hex(20),
      value: uint,
      validAfter: uint,
      validBefore: uint,
      nonce: hex(32),
    }),
    signature: z.string().regex(/^0x[0-9a-fA-F]+$/),
  }),
});

export type X402Settled = {
  settlement: X402Settlement;
  session: Awaited<ReturnType<typeof getPublicCheckoutSession>>;
  invoice: Invoice & { payments: Payment[] };
};

/** How long a copy of an authorization waits for the first copy's settlement before answering 402. */
const copyWaitMs = 60_000;
/**
 * Settlement holds its row's lock across the facilitator's call, which waits for the receipt: the
 * transaction outlives the facilitator client's own timeout (lib/x402/facilitator-client.ts).
 */
const settleTransaction = { maxWait: copyWaitMs, timeout: 180_000 };

/** The latest time a JavaScript Date holds, in seconds. */
const maxDateSeconds = 8.64e12;

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** The requirements we quoted, rebuilt from the signed quote; the agent's copy must match them. */
function checkAccepted(accepted: z.output<typeof paymentPayloadSchema>["accepted"], ref: X402ResourceRef) {
  const quote = readX402Quote(accepted.extra.quote);
  if (!quote) throw paymentRefused("quote_invalid", "The payment does not carry a quote of this service.");
  if (quote.resource.kind !== ref.kind || quote.resource.id !== ref.id)
    throw paymentRefused("quote_for_another_resource", "The payment's quote is for another resource.");
  const asset = findX402Payable(quote.network, quote.token);
  if (!asset) throw paymentRefused("quote_invalid", "The payment's network or token is no longer accepted.");
  const requirements = { ...x402Requirements(quote, asset), extra: accepted.extra };
  const matches =
    accepted.scheme === requirements.scheme &&
    accepted.network === requirements.network &&
    same(accepted.asset, requirements.asset) &&
    accepted.amount === requirements.amount &&
    same(accepted.payTo, requirements.payTo) &&
    accepted.maxTimeoutSeconds === requirements.maxTimeoutSeconds;
  if (!matches)
    throw paymentRefused(
      "requirements_mismatch",
      "The payment's requirements differ from the quote; ask again.",
    );
  return { quote, asset, requirements };
}

/** A SETTLING row whose lock is free this long after its last write lost its settler (a crash). */
const staleAfterMs = 10_000;

const pendingRefusal = () =>
  paymentRefused("settlement_pending", "This payment is still being settled; send it again shortly.");

/**
 * The row of an authorization already presented, read under its lock, so after the settlement
 * that holds it. A row left SETTLING with its lock free lost its settler: `recover` settles it.
 */
async function awaitSettlement(
  database: Db,
  id: string,
  recover: () => Promise<X402Settlement>,
): Promise<X402Settlement> {
  const deadline = Date.now() + copyWaitMs;
  for (;;) {
    const row = await database.$transaction(async (tx) => {
      const [locked] = await tx.$queryRaw<X402Settlement[]>`
        SELECT * FROM "X402Settlement" WHERE "id" = ${id} FOR UPDATE`;
      return locked;
    }, settleTransaction);
    if (row.status !== "SETTLING") return row;
    if (Date.now() - row.updatedAt.getTime() > staleAfterMs) return recover();
    // Else the first copy committed its row but has not taken its lock yet.
    if (Date.now() > deadline) return row;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The result of the authorization's settlement: the paid session and invoice, or its 402. */
async function storedResult(
  database: Db,
  id: string,
  recover: () => Promise<X402Settlement>,
): Promise<X402Settled> {
  const settlement = await awaitSettlement(database, id, recover);
  if (settlement.status === "SETTLING") throw pendingRefusal();
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
    );
    await tx.checkoutSession.create({ data: { ...session, metadata: {} } });
    return createSessionInvoice(tx, { session, network, token, priced, depositAddress, now });
  }
  const [session] = await tx.$queryRaw<CheckoutSession[]>`
    SELECT * FROM "CheckoutSession" WHERE "id" = ${quote.resource.id} FOR UPDATE`;
  if (!session) throw paymentRefused("resource_unavailable", "This checkout session no longer exists.");
  const invoice = await tx.invoice.findUnique({ where: { checkoutSessionId: session.id } });
  if (!invoice && !quote.invoiceId)
    return createSessionInvoice(tx, { session, network, token, priced, depositAddress, now });
  const open = invoice?.status === "AWAITING_PAYMENT" || invoice?.status === "PARTIALLY_PAID";
  if (!invoice || invoice.id !== quote.invoiceId || !open || !same(invoice.depositAddress, quote.payTo))
    throw paymentRefused("quote_stale", "This checkout's payment changed since the quote; ask again.");
  // Each x402 payment pays all that is due: one settling or settled already leaves nothing to pay.
  const paying = await tx.x402Settlement.count({
    where: { invoiceId: invoice.id, status: { in: ["SETTLING", "SETTLED"] } },
  });
  if (paying > 0) throw paymentRefused("quote_used", "This checkout is already being paid; ask again.");
  return invoice;
}

const isUniqueViolation = (error: unknown) =>
  error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";

/**
 * Verified, the payment gets its invoice and its X402Settlement row in one transaction, so the
 * watcher follows the deposit address before any transfer. The transaction first takes a lock on
 * the authorization: a copy waits there, then finds the row and answers its result instead.
 */
async function recordPayment(
  database: Db,
  input: {
    quote: X402Quote;
    asset: X402Payable;
    key: SettlementKey;
    authorization: Authorization;
    now: Date;
  },
): Promise<{ row: X402Settlement; created: boolean }> {
  const { quote, asset, key, authorization, now } = input;
  try {
    return await transactWithEvents(database, async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`x402:${Object.values(key).join(":")}`}))`;
      const existing = await tx.x402Settlement.findUnique({ where: { network_asset_payer_nonce: key } });
      if (existing) return { row: existing, created: false };
      const invoice = await invoiceFor(tx, quote, asset, now);
      const row = await tx.x402Settlement.create({
        data: {
          id: newId("x402Settlement"),
          organizationId: invoice.organizationId,
          invoiceId: invoice.id,
          resourceKind: quote.resource.kind,
          ...key,
          amount: authorization.value,
          payTo: quote.payTo.toLowerCase(),
          // An authorization may be valid "forever" (any uint256): capped at the latest Date.
          validBefore: new Date(Math.min(Number(authorization.validBefore), maxDateSeconds) * 1000),
          createdAt: now,
        },
      });
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

type Authorization = z.output<typeof paymentPayloadSchema>["payload"]["authorization"];
type SettlementKey = { network: string; asset: string; payer: string; nonce: string };

type Settling = {
  facilitator: FacilitatorClient;
  payload: PaymentPayload;
  requirements: PaymentRequirements;
  asset: X402Payable;
  quote: X402Quote;
  now: Date;
};
type Outcome = { transaction: string | null; errorReason: string | null };

/** The transfer's own record on chain: settled when the token used the authorization. */
async function onChain(row: X402Settlement, { asset }: Settling): Promise<Outcome | undefined> {
  const use = await findAuthorizationUse(asset.network, row).catch((error) => {
    log.warn({ err: error, settlementId: row.id }, "x402 authorization state unreadable");
    return { used: false, transaction: null };
  });
  return use.used ? { transaction: use.transaction, errorReason: null } : undefined;
}

/**
 * The facilitator's answer, or undefined when it is not known yet (submitted, not mined). An
 * answer lost on the way (facilitator unreachable, timeout) is decided on chain: the transfer
 * happened or it did not. A recovery looks on chain first: the lost settler may have finished.
 */
async function settlementOutcome(row: X402Settlement, settling: Settling, recovering: boolean) {
  const { facilitator, payload, requirements } = settling;
  if (recovering) {
    const settled = await onChain(row, settling);
    if (settled) return settled;
  }
  let answer: SettleResponse;
  try {
    answer = await facilitator.settle(payload, requirements);
  } catch (error) {
    if (error instanceof SettleError) {
      // A facilitator's refusal arrives as an HTTP error over HTTPFacilitatorClient.
      answer = {
        success: false,
        errorReason: error.errorReason,
        transaction: "",
        network: requirements.network,
      };
    } else {
      log.warn({ err: error, settlementId: row.id }, "x402 facilitator settle failed");
      metrics().x402Settlements.inc({ result: "error" });
      return (await onChain(row, settling)) ?? { transaction: null, errorReason: "facilitator_unavailable" };
    }
  }
  if (!answer.success && answer.errorReason === "settlement_pending") return undefined;
  metrics().x402Settlements.inc({ result: answer.success ? "settled" : "failed" });
  return answer.success
    ? { transaction: answer.transaction, errorReason: null }
    : { transaction: answer.transaction || null, errorReason: answer.errorReason ?? "settlement_failed" };
}

/**
 * Settles the row's authorization holding the row's lock (copies wait on it), records the
 * outcome, and withdraws a paylink's invoice that was not paid. Left SETTLING while pending.
 */
async function settleRow(
  database: Db,
  id: string,
  settling: Settling,
  recovering: boolean,
): Promise<X402Settlement> {
  let failed = false;
  const row = await database.$transaction(async (tx) => {
    const [locked] = await tx.$queryRaw<X402Settlement[]>`
      SELECT * FROM "X402Settlement" WHERE "id" = ${id} FOR UPDATE`;
    if (locked.status !== "SETTLING") return locked;
    const outcome = await settlementOutcome(locked, settling, recovering);
    if (!outcome) return locked;
    failed = outcome.errorReason !== null;
    return tx.x402Settlement.update({
      where: { id },
      data: { status: failed ? "FAILED" : "SETTLED", ...outcome },
    });
  }, settleTransaction);
  if (failed) await withdrawUnpaidX402Invoice(database, row, settling.now);
  return row;
}

/**
 * An agent's x402 payment for a paylink or a checkout session (its PAYMENT-SIGNATURE, decoded):
 * checked against the quote we signed, verified by the facilitator, recorded with its invoice,
 * then settled once. The same authorization sent again, or concurrently, answers the first one's
 * result and never moves money twice. Refusals are 402 (`paymentRefused`) and mark nothing paid;
 * the payment then lands like any other: the watcher sees the transfer to the deposit address.
 */
export async function settleX402Payment(
  database: Db,
  ref: X402ResourceRef,
  received: unknown,
  now = new Date(),
): Promise<X402Settled> {
  const facilitator = x402FacilitatorClient();
  if (!facilitator || !config().secretKey) throw x402Unavailable();
  const parsed = paymentPayloadSchema.safeParse(received);
  if (!parsed.success)
    throw paymentRefused("invalid_payment", "PAYMENT-SIGNATURE is not an x402 v2 exact EVM payment.");
  const { accepted, payload } = parsed.data;
  const { quote, asset, requirements } = checkAccepted(accepted, ref);
  const { authorization } = payload;
  const key: SettlementKey = {
    network: asset.network.id,
    asset: asset.x402.asset.toLowerCase(),
    payer: authorization.from.toLowerCase(),
    nonce: authorization.nonce.toLowerCase(),
  };

  const paymentPayload = received as PaymentPayload;
  const settling: Settling = { facilitator, payload: paymentPayload, requirements, asset, quote, now };
  const recover = (id: string) => () => settleRow(database, id, settling, true);

  const known = await database.x402Settlement.findUnique({ where: { network_asset_payer_nonce: key } });
  if (known) return storedResult(database, known.id, recover(known.id));
  if (now.getTime() > new Date(quote.expiresAt).getTime())
    throw paymentRefused("quote_expired", "The quote has expired; ask again.");

  const verified = await facilitator.verify(paymentPayload, requirements).catch((error): VerifyResponse => {
    if (error instanceof VerifyError) return { isValid: false, invalidReason: error.invalidReason };
    log.warn({ err: error }, "x402 facilitator verify failed");
    metrics().x402Verifications.inc({ result: "error" });
    throw paymentRefused(
      "facilitator_unavailable",
      "The payment could not be verified right now; try again.",
    );
  });
  metrics().x402Verifications.inc({ result: verified.isValid ? "valid" : "invalid" });
  if (!verified.isValid) {
    const reason = verified.invalidReason ?? "invalid_payment";
    throw paymentRefused(reason, `The payment is not valid (${verified.invalidMessage ?? reason}).`);
  }

  const { row, created } = await recordPayment(database, { quote, asset, key, authorization, now });
  if (created) await settleRow(database, row.id, settling, false);
  return storedResult(database, row.id, recover(row.id));
}
