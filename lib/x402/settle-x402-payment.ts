import { createHash } from "node:crypto";
import type { FacilitatorClient } from "@x402/core/server";
import { type PaymentPayload, VerifyError, type VerifyResponse } from "@x402/core/types";
import { config } from "../config";
import type { Db } from "../db/client";
import { serviceUnavailable } from "../errors";
import type { X402Settlement } from "../generated/prisma/client";
import { log } from "../log";
import { metrics } from "../metrics/metrics";
import { processWide } from "../process-wide";
import { awaitX402Settlement, type X402Settled, x402SettlementResult } from "./await-x402-settlement";
import { x402FacilitatorClient, x402FacilitatorRecordsBroadcasts } from "./facilitator-client";
import type { X402ResourceRef } from "./find-x402-resource";
import { x402Unavailable } from "./quote-x402-payment";
import {
  authorizationHash,
  checkAcceptedQuote,
  checkAuthorizationMatches,
  checkSameAuthorization,
  checkValidityWindow,
  readX402Payment,
  type X402Payment,
} from "./read-x402-payment";
import { recordX402Payment, type X402SettlementKey } from "./record-x402-payment";
import { settleX402Authorization, type X402Settling } from "./settle-x402-authorization";
import { carriesTransaction, settleX402Transaction } from "./settle-x402-transaction";
import {
  checkX402GasBudget,
  coversSettlementGas,
  settlementGasEstimates,
  x402PriceBelowGas,
} from "./x402-gas";
import { paymentRefused, x402ErrorCode } from "./x402-payment-errors";

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
 * other instances meet at the authorization's row (lib/x402/record-x402-payment.ts,
 * lib/x402/await-x402-settlement.ts).
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
  if (carriesTransaction(received)) return settleX402Transaction(database, ref, received, now);
  const payment = readX402Payment(received);
  // The authorization at this resource, not the whole JSON: copies that differ in what the
  // signature does not cover still share one attempt; one that reuses the nonce with other
  // signed fields does not (it is refused, checkSameAuthorization).
  const { accepted, payload } = payment;
  const authorizationKey = [accepted.network, accepted.asset, payload.authorization.from].map((part) =>
    part.toLowerCase(),
  );
  const key = createHash("sha256")
    .update(JSON.stringify([ref, ...authorizationKey, authorizationHash(payload)]))
    .digest("base64url");
  const running = inFlight.get(key);
  if (running) return running;
  // The parsed payment, not the agent's JSON: what we checked is all the facilitator sees.
  const forwarded: PaymentPayload = {
    x402Version: payment.x402Version,
    accepted: payment.accepted as PaymentPayload["accepted"],
    payload: payment.payload,
  };
  const attempt = settleOnce(database, facilitator, ref, forwarded, payment, now).finally(() =>
    inFlight.delete(key),
  );
  inFlight.set(key, attempt);
  return attempt;
}

/** Seconds an agent waits before sending a payment again when the facilitator could not verify it. */
const verifyRetrySeconds = 5;

async function settleOnce(
  database: Db,
  facilitator: FacilitatorClient,
  ref: X402ResourceRef,
  paymentPayload: PaymentPayload,
  payment: X402Payment,
  now: Date,
): Promise<X402Settled> {
  const { accepted, payload } = payment;
  const { quote, asset, requirements } = checkAcceptedQuote(accepted, ref);
  const { authorization } = payload;
  const key: X402SettlementKey = {
    network: asset.network.id,
    asset: asset.x402.asset.toLowerCase(),
    payer: authorization.from.toLowerCase(),
    nonce: authorization.nonce.toLowerCase(),
  };

  const settling: X402Settling = {
    facilitator,
    payload: paymentPayload,
    requirements,
    asset,
    now,
    recordsBroadcasts: x402FacilitatorRecordsBroadcasts(),
  };
  const recover = (row: X402Settlement) => settleX402Authorization(database, row, settling, true);

  const known = await database.x402Settlement.findUnique({ where: { network_asset_payer_nonce: key } });
  // A known authorization answers where it paid (409 elsewhere); a new one must pay this quote.
  if (known) {
    checkSameAuthorization(known, payload);
    return awaitX402Settlement(database, known, ref, quote, recover);
  }
  checkAuthorizationMatches(authorization, requirements);
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
    // An outage, not a refusal: a 402 would have the agent sign again; the same payment may be retried.
    throw serviceUnavailable(verifyRetrySeconds);
  });
  metrics().x402Verifications.inc({ result: verified.isValid ? "valid" : "invalid" });
  if (!verified.isValid) {
    // The facilitator's message may be a library's dump (a failed simulation): the code says why.
    const reason = x402ErrorCode(verified.invalidReason, "invalid_payment");
    throw paymentRefused(reason, `The payment is not valid (${reason}).`);
  }

  const { row, created } = await recordX402Payment(database, {
    quote,
    asset,
    key,
    signed: {
      amount: authorization.value,
      // At most the quote's window away (checkValidityWindow).
      validBefore: new Date(Number(authorization.validBefore) * 1000),
      hash: authorizationHash(payload),
    },
    gasEstimates,
    now,
  });
  if (!created) checkSameAuthorization(row, payload);
  if (!created) return awaitX402Settlement(database, row, ref, quote, recover);
  return x402SettlementResult(database, await settleX402Authorization(database, row, settling, false));
}
