import { createHash } from "node:crypto";
import type { FacilitatorClient } from "@x402/core/server";
import {
  type PaymentPayload,
  type PaymentRequirements,
  SettleError,
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
import { processWide } from "../process-wide";
import { decideX402Settlement } from "./decide-x402-settlement";
import { x402FacilitatorClient } from "./facilitator-client";
import type { X402ResourceRef } from "./find-x402-resource";
import { x402Unavailable } from "./quote-x402-payment";
import { withdrawUnpaidX402Invoice } from "./withdraw-unpaid-x402-invoice";
import {
  checkX402GasBudget,
  coversSettlementGas,
  reserveX402Gas,
  type SettlementGasEstimates,
  settledGasUsd,
  settlementGasEstimates,
  x402PriceBelowGas,
} from "./x402-gas";
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
    // Unknown keys dropped: they cannot make copies of one payment differ (settleX402Payment's key).
    extra: z.object({ quote: z.string(), name: z.string().optional(), version: z.string().optional() }),
  }),
  // Strict: an EIP-3009 authorization only, so nothing else (a Permit2 payload) reaches the facilitator.
  payload: z.strictObject({
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

/** How long a copy of an authorization waits for the first copy's settlement before answering 503. */
const copyWaitMs = 60_000;
/**
 * A settler renews its claim on a SETTLING row this often while the chain is awaited (the row's
 * `updatedAt`); a row not renewed for `settlerLeaseMs` lost its settler (a crash, a restart), and
 * the next copy of the payment may take it over.
 */
const leaseRenewalMs = 10_000;
export const settlerLeaseMs = 30_000;

/** How far an authorization's validBefore may pass the quote's window: the agent's clock may run ahead. */
const clockSkewSeconds = 60;

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** The requirements we quoted, rebuilt from the signed quote; the agent's copy must match them. */
function checkAccepted(accepted: z.output<typeof paymentPayloadSchema>["accepted"], ref: X402ResourceRef) {
  const quote = readX402Quote(accepted.extra.quote);
  if (!quote) throw paymentRefused("quote_invalid", "The payment does not carry a quote of this service.");
  if (quote.resource.kind !== ref.kind || quote.resource.id !== ref.id)
    throw paymentRefused("quote_for_another_resource", "The payment's quote is for another resource.");
  const asset = findX402Payable(quote.network, quote.token);
  if (!asset) throw paymentRefused("quote_invalid", "The payment's network or token is no longer accepted.");
  // Ours, `extra` too (the token's EIP-712 domain): the agent's copy is compared, never forwarded.
  const requirements = x402Requirements(quote, asset);
  const matches =
    accepted.scheme === requirements.scheme &&
    accepted.network === requirements.network &&
    same(accepted.asset, requirements.asset) &&
    accepted.amount === requirements.amount &&
    same(accepted.payTo, requirements.payTo) &&
    accepted.maxTimeoutSeconds === requirements.maxTimeoutSeconds &&
    accepted.extra.name === requirements.extra?.name &&
    accepted.extra.version === requirements.extra?.version;
  if (!matches)
    throw paymentRefused(
      "requirements_mismatch",
      "The payment's requirements differ from the quote; ask again.",
    );
  return { quote, asset, requirements };
}

/** Seconds an agent waits before sending a pending payment again (about a block or two). */
const pendingRetrySeconds = 5;

/**
 * A payment whose transfer may still land: not a refusal (402 would tell the agent to pay again,
 * and both payments could land), but 503 with Retry-After; the same authorization sent again
 * answers the outcome.
 */
const settlementPending = () =>
  new ServiceError(
    503,
    "api_error",
    "settlement_pending",
    "This payment is still being settled; send the same payment again shortly, and do not sign a new one.",
    undefined,
    { "Retry-After": String(pendingRetrySeconds) },
  );

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Takes over a SETTLING row whose settler stopped renewing its lease: one statement, so of two
 * copies (or instances) that find it stale, one wins. The winner settles it; no lock is held.
 */
async function takeOverStale(database: Db, id: string): Promise<X402Settlement | undefined> {
  const [row] = await database.$queryRaw<X402Settlement[]>`
    UPDATE "X402Settlement" SET "updatedAt" = now()
    WHERE "id" = ${id} AND "status" = 'SETTLING' AND "updatedAt" < now() - ${settlerLeaseMs} * interval '1 millisecond'
    RETURNING *`;
  return row;
}

/**
 * The authorization's row once decided, read by short queries with backoff: no connection and no
 * lock is held in between, so copies waiting on one settlement cost the pool nothing. A row whose
 * settler stopped renewing its lease is taken over and settled (`recover`).
 */
async function awaitSettlement(
  database: Db,
  id: string,
  recover: (row: X402Settlement) => Promise<X402Settlement>,
): Promise<X402Settlement> {
  const deadline = Date.now() + copyWaitMs;
  for (let delay = 50; ; delay = Math.min(delay * 2, 1000)) {
    const row = await database.x402Settlement.findUniqueOrThrow({ where: { id } });
    if (row.status !== "SETTLING") return row;
    if (Date.now() - row.updatedAt.getTime() > settlerLeaseMs) {
      const taken = await takeOverStale(database, id);
      if (taken) return recover(taken);
    }
    if (Date.now() > deadline) return row;
    await sleep(delay);
  }
}

/** The result of the authorization's settlement, awaited (a copy's): see `settlementResult`. */
async function storedResult(
  database: Db,
  id: string,
  recover: (row: X402Settlement) => Promise<X402Settlement>,
): Promise<X402Settled> {
  return settlementResult(database, await awaitSettlement(database, id, recover));
}

/** The paid session and invoice; a failed payment's 402; a pending one's 503. */
async function settlementResult(database: Db, settlement: X402Settlement): Promise<X402Settled> {
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
    select: { checkoutSessionId: true, checkoutSession: { select: { paylinkId: true } } },
  });
  const paid =
    ref.kind === "paylink"
      ? row.resourceKind === "paylink" && invoice.checkoutSession.paylinkId === ref.id
      : row.resourceKind === "checkout_session" && invoice.checkoutSessionId === ref.id;
  if (!paid || !same(row.payTo, quote.payTo))
    throw new ServiceError(
      409,
      "invalid_request_error",
      "authorization_used",
      "This authorization was already presented for another resource; sign a new payment for this one.",
    );
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
  // Each x402 payment pays all that is due: one settled already leaves nothing to pay. One still
  // settling may yet fail: a 402 would have the agent sign again and again, so it waits (503).
  const paying = await tx.x402Settlement.findMany({
    where: { invoiceId: invoice.id, status: { in: ["SETTLING", "SETTLED"] } },
    select: { status: true },
  });
  if (paying.some(({ status }) => status === "SETTLED"))
    throw paymentRefused("quote_used", "This checkout is already paid; ask again.");
  if (paying.length > 0)
    throw new ServiceError(
      503,
      "api_error",
      "payment_in_progress",
      "Another payment of this checkout is still being settled; send this one again shortly, and do not sign a new one.",
      undefined,
      { "Retry-After": String(pendingRetrySeconds) },
    );
  return invoice;
}

const isUniqueViolation = (error: unknown) =>
  error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";

/**
 * An authorization valid now and for no longer than the quote asked (its maxTimeoutSeconds, and a
 * minute for the agent's clock): one valid for ages would stay a claim on the payer's balance,
 * and on our gas, long after the quote.
 */
function checkValidityWindow(authorization: Authorization, maxTimeoutSeconds: number, now: Date) {
  const seconds = BigInt(Math.floor(now.getTime() / 1000));
  if (BigInt(authorization.validAfter) > seconds)
    throw paymentRefused("authorization_not_yet_valid", "The authorization's validAfter is in the future.");
  if (BigInt(authorization.validBefore) > seconds + BigInt(maxTimeoutSeconds + clockSkewSeconds))
    throw paymentRefused(
      "authorization_valid_too_long",
      `The authorization's validBefore is more than the quote's ${maxTimeoutSeconds} seconds away; sign it as quoted.`,
    );
}

/**
 * Verified, the payment gets its invoice and its X402Settlement row in one transaction, so the
 * watcher follows the deposit address before any transfer. The transaction first takes a lock on
 * the payer: a copy of the authorization waits there, then finds the row and answers its result
 * instead, and another authorization of the payer's is refused while one of its settlements is
 * under way (`payer_busy`), so one balance backs one settlement at a time. Then the
 * organization's gas budget decides, under its own lock (`reserveX402Gas`).
 */
async function recordPayment(
  database: Db,
  input: {
    quote: X402Quote;
    asset: X402Payable;
    key: SettlementKey;
    authorization: Authorization;
    gasEstimates: SettlementGasEstimates;
    now: Date;
  },
): Promise<{ row: X402Settlement; created: boolean }> {
  const { quote, asset, key, authorization, gasEstimates, now } = input;
  const { network, asset: token, payer } = key;
  try {
    return await transactWithEvents(database, async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`x402:${network}:${token}:${payer}`}))`;
      const existing = await tx.x402Settlement.findUnique({ where: { network_asset_payer_nonce: key } });
      if (existing) return { row: existing, created: false };
      const settling = await tx.x402Settlement.count({
        where: { network, asset: token, payer, status: "SETTLING" },
      });
      if (settling > 0)
        throw paymentRefused(
          "payer_busy",
          "Another payment from this payer is still being settled; send this one again once it is.",
        );
      const invoice = await invoiceFor(tx, quote, asset, now);
      await reserveX402Gas(tx, invoice.organizationId, gasEstimates, now);
      const row = await tx.x402Settlement.create({
        data: {
          id: newId("x402Settlement"),
          organizationId: invoice.organizationId,
          invoiceId: invoice.id,
          resourceKind: quote.resource.kind,
          ...key,
          amount: authorization.value,
          payTo: quote.payTo.toLowerCase(),
          // At most the quote's window away (checkValidityWindow).
          validBefore: new Date(Number(authorization.validBefore) * 1000),
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
type Outcome = {
  status: "SETTLED" | "FAILED" | "SETTLING";
  transaction: string | null;
  errorReason: string | null;
  gasUsd?: string;
};

/** An error code as x402 clients get it: ours or x402's short snake_case, never a library's text. */
export function x402ErrorCode(reason: string | undefined, fallback: string): string {
  return reason && /^[a-z][a-z0-9_]{0,79}$/.test(reason) ? reason : fallback;
}

/** The facilitator's answer, or undefined when none came (unreachable, timed out, cut off). */
async function askToSettle(row: X402Settlement, { facilitator, payload, requirements }: Settling) {
  try {
    return await facilitator.settle(payload, requirements);
  } catch (error) {
    // A facilitator's refusal arrives as an HTTP error over HTTPFacilitatorClient.
    if (error instanceof SettleError)
      return {
        success: false,
        errorReason: error.errorReason,
        transaction: error.transaction ?? "",
        network: requirements.network,
      };
    log.warn({ err: error, settlementId: row.id }, "x402 facilitator settle failed");
    return undefined;
  }
}

/**
 * The settlement's outcome, or undefined when the chain cannot be read now. A payment whose
 * transfer may still land stays SETTLING: FAILED only when the facilitator refused it with nothing
 * sent (no transaction in its answer, none recorded on the row: our facilitator records one before
 * it broadcasts), or when the chain says it can never land (lib/x402/decide-x402-settlement.ts).
 * A recovery (a takeover) looks on chain first, and never sends a second transaction while one
 * recorded for the row may still land: it asks the facilitator only when none was sent.
 */
async function settlementOutcome(
  database: Db,
  row: X402Settlement,
  settling: Settling,
  recovering: boolean,
): Promise<Outcome | undefined> {
  const { network } = settling.asset;
  if (recovering) {
    const found = await decideX402Settlement(network, row, row.transaction, settling.now);
    if (!found) return undefined;
    if (found.status !== "SETTLING" || row.transaction) return found;
  }
  const answer = await askToSettle(row, settling);
  if (answer?.success) {
    metrics().x402Settlements.inc({ result: "settled" });
    const gas = await settledGasUsd(network, answer.transaction, settling.now);
    return { status: "SETTLED", transaction: answer.transaction, errorReason: null, gasUsd: gas?.toString() };
  }
  const recorded = await database.x402Settlement.findUniqueOrThrow({
    where: { id: row.id },
    select: { transaction: true },
  });
  const sent = answer?.transaction || recorded.transaction;
  const found = await decideX402Settlement(network, row, sent, settling.now);
  if (!found) return undefined;
  const refused = answer !== undefined && !sent && answer.errorReason !== "settlement_pending";
  // Used on chain is settled whatever the answer; a refusal with nothing sent fails at once.
  const status = found.status === "SETTLING" && refused ? "FAILED" : found.status;
  metrics().x402Settlements.inc({
    result: status === "SETTLED" ? "settled" : status === "FAILED" ? "failed" : "pending",
  });
  // A cancel says why; else a refusal; else an authorization that can no longer land, that its window closed.
  const errorReason =
    status !== "FAILED"
      ? null
      : found.errorReason === "authorization_canceled"
        ? found.errorReason
        : refused
          ? x402ErrorCode(answer.errorReason, "settlement_failed")
          : "settlement_expired";
  return { ...found, status, errorReason };
}

/** While `work` runs, the row's lease is renewed, so copies know its settler is alive. */
async function holdingLease<T>(database: Db, id: string, work: () => Promise<T>): Promise<T> {
  const timer = setInterval(() => {
    database.x402Settlement
      .updateMany({ where: { id, status: "SETTLING" }, data: { updatedAt: new Date() } })
      .catch((error) => log.warn({ err: error, settlementId: id }, "x402 settlement lease not renewed"));
  }, leaseRenewalMs);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

/**
 * Settles the row's authorization (the caller holds its lease: it created the row or took it
 * over), then records the outcome in one short statement that only a SETTLING row takes; a
 * paylink's invoice that was not paid is withdrawn. No connection is held while the chain is
 * awaited. A payment still pending stays SETTLING with what is known (its transaction, the gas
 * that cost) and its lease handed back, so the payer's next copy looks at the chain at once.
 */
async function settleRow(
  database: Db,
  row: X402Settlement,
  settling: Settling,
  recovering: boolean,
): Promise<X402Settlement> {
  const outcome = await holdingLease(database, row.id, () =>
    settlementOutcome(database, row, settling, recovering),
  );
  const { status, transaction, errorReason, gasUsd } = outcome ?? {
    status: "SETTLING",
    transaction: null,
    errorReason: null,
  };
  const known = { ...(transaction ? { transaction } : {}), ...(gasUsd ? { gasUsd } : {}) };
  const { count } = await database.x402Settlement.updateMany({
    where: { id: row.id, status: "SETTLING" },
    data:
      status === "SETTLING"
        ? { ...known, updatedAt: new Date(Date.now() - settlerLeaseMs - 1000) }
        : { status, errorReason, ...known },
  });
  const decided = await database.x402Settlement.findUniqueOrThrow({ where: { id: row.id } });
  if (count === 1 && status === "FAILED") await withdrawUnpaidX402Invoice(database, decided, settling.now);
  return decided;
}

/** The organization a paylink or session belongs to, if it still exists. */
async function organizationOf(database: Db, ref: X402ResourceRef): Promise<string | undefined> {
  const row =
    ref.kind === "paylink"
      ? await database.paylink.findFirst({ where: { id: ref.id }, select: { organizationId: true } })
      : await database.checkoutSession.findUnique({
          where: { id: ref.id },
          select: { organizationId: true },
        });
  return row?.organizationId;
}

/**
 * Copies of one payment that arrive at this process together share one attempt: the first
 * settles, the others await its promise and hold nothing (no connection, no lock). Copies at
 * other instances meet at the authorization's row (`recordPayment`, `awaitSettlement`).
 */
const inFlight = processWide("x402-in-flight", () => new Map<string, Promise<X402Settled>>());

/**
 * An agent's x402 payment for a paylink or a checkout session (its PAYMENT-SIGNATURE, decoded):
 * checked against the quote we signed, verified by the facilitator, recorded with its invoice,
 * then settled once. The same authorization sent again, or concurrently, answers the first one's
 * result and never moves money twice. Refusals are 402 (`paymentRefused`) and mark nothing paid;
 * a payment whose transfer may still land is 503 `settlement_pending` (never a 402, which would
 * have the agent pay again) until the chain decides it.
 * Only short transactions touch the database; the facilitator and the chain are awaited outside.
 */
export async function settleX402Payment(
  database: Db,
  ref: X402ResourceRef,
  received: unknown,
  now = new Date(),
): Promise<X402Settled> {
  const facilitator = x402FacilitatorClient();
  if (!facilitator || !config().secretKey) throw x402Unavailable();
  const inner = (received as { payload?: unknown } | null)?.payload;
  if (typeof inner === "object" && inner !== null && "permit2Authorization" in inner)
    throw paymentRefused(
      "unsupported_payment_method",
      "Only EIP-3009 authorizations (transferWithAuthorization) are accepted, not Permit2.",
    );
  const parsed = paymentPayloadSchema.safeParse(received);
  if (!parsed.success)
    throw paymentRefused("invalid_payment", "PAYMENT-SIGNATURE is not an x402 v2 exact EVM payment.");
  // The authorization at this resource, not the whole JSON: copies that differ in what the
  // signature does not cover still share one attempt.
  const { accepted, payload } = parsed.data;
  const { from, nonce } = payload.authorization;
  const authorizationKey = [accepted.network, accepted.asset, from, nonce].map((part) => part.toLowerCase());
  const key = createHash("sha256")
    .update(JSON.stringify([ref, ...authorizationKey]))
    .digest("base64url");
  const running = inFlight.get(key);
  if (running) return running;
  const attempt = settleOnce(
    database,
    facilitator,
    ref,
    received as PaymentPayload,
    parsed.data,
    now,
  ).finally(() => inFlight.delete(key));
  inFlight.set(key, attempt);
  return attempt;
}

async function settleOnce(
  database: Db,
  facilitator: FacilitatorClient,
  ref: X402ResourceRef,
  paymentPayload: PaymentPayload,
  payment: z.output<typeof paymentPayloadSchema>,
  now: Date,
): Promise<X402Settled> {
  const { accepted, payload } = payment;
  const { quote, asset, requirements } = checkAccepted(accepted, ref);
  const { authorization } = payload;
  const key: SettlementKey = {
    network: asset.network.id,
    asset: asset.x402.asset.toLowerCase(),
    payer: authorization.from.toLowerCase(),
    nonce: authorization.nonce.toLowerCase(),
  };

  const settling: Settling = { facilitator, payload: paymentPayload, requirements, asset, quote, now };
  const recover = (row: X402Settlement) => settleRow(database, row, settling, true);

  const known = await database.x402Settlement.findUnique({ where: { network_asset_payer_nonce: key } });
  if (known) {
    await checkSameResource(database, known, ref, quote);
    return storedResult(database, known.id, recover);
  }
  if (now.getTime() > new Date(quote.expiresAt).getTime())
    throw paymentRefused("quote_expired", "The quote has expired; ask again.");
  checkValidityWindow(authorization, requirements.maxTimeoutSeconds, now);
  if (!(await coversSettlementGas(asset.network, quote.amountUsd, now))) throw x402PriceBelowGas();
  const organizationId = await organizationOf(database, ref);
  if (organizationId) await checkX402GasBudget(database, organizationId, now);
  const gasEstimates = await settlementGasEstimates(now);

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
    // The facilitator's message may be a library's dump (a failed simulation): the code says why.
    const reason = x402ErrorCode(verified.invalidReason, "invalid_payment");
    throw paymentRefused(reason, `The payment is not valid (${reason}).`);
  }

  const { row, created } = await recordPayment(database, {
    quote,
    asset,
    key,
    authorization,
    gasEstimates,
    now,
  });
  if (!created) {
    await checkSameResource(database, row, ref, quote);
    return storedResult(database, row.id, recover);
  }
  return settlementResult(database, await settleRow(database, row, settling, false));
}
