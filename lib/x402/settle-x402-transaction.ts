import type { FacilitatorClient } from "@x402/core/server";
import {
  type PaymentPayload,
  type PaymentRequirements,
  VerifyError,
  type VerifyResponse,
} from "@x402/core/types";
import { z } from "zod";
import { chainFamily } from "../chains/chain-families";
import type { X402CosignedTransaction, X402TransactionScheme } from "../chains/x402-transaction-scheme";
import type { Db } from "../db/client";
import { serviceUnavailable } from "../errors";
import type { X402Settlement } from "../generated/prisma/client";
import { log } from "../log";
import { metrics } from "../metrics/metrics";
import { processWide } from "../process-wide";
import { askX402TransactionSettlement } from "./ask-x402-transaction-settlement";
import { awaitX402Settlement, type X402Settled, x402SettlementResult } from "./await-x402-settlement";
import { x402FacilitatorClient } from "./facilitator-client";
import type { X402ResourceRef } from "./find-x402-resource";
import { followX402Transaction } from "./follow-x402-transaction";
import { acceptedSchema, checkAcceptedQuote } from "./read-x402-payment";
import { recordedX402Transaction, recordX402Payment } from "./record-x402-payment";
import { recordX402TransactionOutcome } from "./record-x402-transaction-outcome";
import { coversSettlementGas, settlementGasEstimates, x402PriceBelowGas } from "./x402-gas";
import { paymentRefused, x402ErrorCode } from "./x402-payment-errors";
import { builtInFeePayer, type X402Payable } from "./x402-requirements";
import { holdingX402Lease } from "./x402-settler-lease";

// The `exact` scheme where the agent signs a transaction our fee payer completes (x402's SVM
// scheme, @x402/svm's client): docs/api.md, "x402".
const transactionPaymentSchema = z.object({
  x402Version: z.literal(2),
  accepted: acceptedSchema,
  payload: z.strictObject({ transaction: z.string().min(1).max(4096) }),
});

/** Whether an agent's payment carries a transaction (rather than an authorization). */
export const carriesTransaction = (received: unknown) =>
  typeof (received as { payload?: { transaction?: unknown } } | null)?.payload?.transaction === "string";

/** A transaction is tried for at most a blockhash's life (about a minute): the row's validBefore. */
const transactionLifeMs = 120_000;

/** A node that cannot answer is an outage (503), never a refusal that would have the agent pay again. */
async function fromChain<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    log.warn({ err: error }, "x402 transaction: the node did not answer");
    throw serviceUnavailable(5);
  }
}

type Settling = { scheme: X402TransactionScheme; asset: X402Payable };

/** Settles a recorded row (its lease held), then records the outcome (record-x402-transaction-outcome.ts). */
async function settleRow(database: Db, row: X402Settlement, settling: Settling, now: Date) {
  const signed = recordedX402Transaction(row);
  const progress = signed
    ? await holdingX402Lease(database, row.id, () =>
        followX402Transaction(settling.scheme, settling.asset.network, signed, row.id),
      )
    : "pending";
  await recordX402TransactionOutcome(database, row, progress, {
    network: settling.asset.network,
    now,
    handBack: true,
  });
  return database.x402Settlement.findUniqueOrThrow({ where: { id: row.id } });
}

/** The signing role's facilitator's check of the transaction (over HTTP): a refusal, or who pays. */
async function verifyRemotely(
  facilitator: FacilitatorClient,
  { payload, requirements }: { payload: PaymentPayload; requirements: PaymentRequirements },
): Promise<{ refusal: string } | { payer: string }> {
  const verified = await facilitator.verify(payload, requirements).catch((error): VerifyResponse => {
    if (error instanceof VerifyError) return { isValid: false, invalidReason: error.invalidReason };
    log.warn({ err: error }, "x402 facilitator verify failed");
    throw serviceUnavailable(5);
  });
  if (verified.isValid) return { payer: verified.payer ?? "" };
  return { refusal: x402ErrorCode(verified.invalidReason, "invalid_payment") };
}

/** Copies of one transaction arriving together at this process share one attempt. */
const inFlight = processWide("x402-transactions-in-flight", () => new Map<string, Promise<X402Settled>>());

/**
 * An agent's x402 payment that carries a partially signed transaction (x402's SVM scheme): checked
 * against the quote we signed and by the network's family (only the transfer the quote asks, our
 * fee payer in no instruction, the blockhash valid, a simulation passing), recorded with its
 * invoice, co-signed, sent and followed until the chain decides it, once. A copy of a known
 * transaction (the same one, or the one we completed) answers the first one's result and moves
 * nothing. Refusals are 402 with x402's SVM codes; a transaction that may still land is 503
 * `settlement_pending`. The invoice is paid by the watcher, which finds the transfer by its memo.
 */
export async function settleX402Transaction(
  database: Db,
  ref: X402ResourceRef,
  received: unknown,
  now = new Date(),
): Promise<X402Settled> {
  const parsed = transactionPaymentSchema.safeParse(received);
  if (!parsed.success)
    throw paymentRefused("invalid_payment", "PAYMENT-SIGNATURE is not an x402 v2 exact payment.");
  const { quote, asset, requirements } = checkAcceptedQuote(parsed.data.accepted, ref);
  const scheme = chainFamily(asset.network).x402Transactions;
  const mnemonic = builtInFeePayer();
  // Without the key here, the signing role's facilitator checks, co-signs and sends, over HTTP.
  const facilitator = mnemonic ? undefined : x402FacilitatorClient();
  if (!scheme || !(mnemonic || facilitator) || !quote.reference)
    throw paymentRefused("unsupported_payment_method", "This network's x402 payments are not transactions.");
  const { transaction } = parsed.data.payload;
  const identity = scheme.identify(transaction);
  if (!identity)
    throw paymentRefused(
      "invalid_exact_svm_payload_transaction_could_not_be_decoded",
      "The payment's transaction cannot be decoded.",
    );
  // Keyed by the resource too: a copy sent for another resource while the first is in flight must
  // reach the same-resource check (awaitX402Settlement), never the first resource's 200.
  const flightKey = JSON.stringify([ref, identity.id]);
  const running = inFlight.get(flightKey);
  if (running) return running;
  const settling = { scheme, asset };
  const forwarded = {
    payload: { x402Version: 2, accepted: requirements, payload: { transaction } } as PaymentPayload,
    requirements,
  };
  // A row the facilitator recorded no transaction for is asked to it (again); one it did is followed here.
  const settle = async (row: X402Settlement) => {
    const asked =
      facilitator && !recordedX402Transaction(row)
        ? await askX402TransactionSettlement(database, row, facilitator, forwarded, now)
        : row;
    return asked.status === "SETTLING" ? settleRow(database, asked, settling, now) : asked;
  };
  const attempt = (async () => {
    const key = {
      network: asset.network.id,
      asset: asset.x402.asset,
      payer: identity.payer,
      nonce: identity.id,
    };
    const recover = settle;
    const known = await database.x402Settlement.findUnique({ where: { network_asset_payer_nonce: key } });
    if (known) return awaitX402Settlement(database, known, ref, quote, recover);
    if (now.getTime() > new Date(quote.expiresAt).getTime())
      throw paymentRefused("quote_expired", "The quote has expired; ask again.");
    const terms = {
      payTo: quote.payTo,
      asset: asset.x402.asset,
      units: BigInt(quote.amount),
      decimals: asset.token.decimals,
      memo: quote.reference as string,
    };
    const checked = mnemonic
      ? await fromChain(() => scheme.check(asset.network, mnemonic, transaction, terms))
      : await verifyRemotely(facilitator as FacilitatorClient, forwarded);
    metrics().x402Verifications.inc({ result: "refusal" in checked ? "invalid" : "valid" });
    if ("refusal" in checked)
      throw paymentRefused(checked.refusal, `The payment is not valid (${checked.refusal}).`);
    // Co-signed here when this process holds the key; else the facilitator co-signs it when settling.
    const cosigned = "signed" in checked ? (checked as X402CosignedTransaction) : undefined;
    // As for an authorization: gas unread is a 503 (never a row whose gas the budget cannot
    // count), and the organization's budget decides inside the recording transaction.
    if (!(await coversSettlementGas(asset.network, quote.amountUsd, now))) throw x402PriceBelowGas();
    const gasEstimates = await settlementGasEstimates(now);
    const { row, created } = await recordX402Payment(database, {
      quote,
      asset,
      key,
      signed: {
        amount: quote.amount,
        validBefore: new Date(now.getTime() + transactionLifeMs),
        hash: cosigned?.id ?? identity.id,
        transaction: cosigned,
      },
      gasEstimates,
      now,
    });
    if (!created) return awaitX402Settlement(database, row, ref, quote, recover);
    return x402SettlementResult(database, await settle(row));
  })().finally(() => inFlight.delete(flightKey));
  inFlight.set(flightKey, attempt);
  return attempt;
}
