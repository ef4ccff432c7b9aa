import type { FacilitatorClient } from "@x402/core/server";
import { type PaymentPayload, type PaymentRequirements, SettleError } from "@x402/core/types";
import type { Db } from "../db/client";
import type { X402Settlement } from "../generated/prisma/client";
import { log } from "../log";
import { metrics } from "../metrics/metrics";
import { decideX402Settlement } from "./decide-x402-settlement";
import { isTransactionHash } from "./eip3009-token";
import { findFacilitatorWallets } from "./find-facilitator-wallets";
import { findSettlementGas } from "./find-settlement-gas";
import { withdrawUnpaidX402Invoice } from "./withdraw-unpaid-x402-invoice";
import { x402ErrorCode } from "./x402-payment-errors";
import type { X402Payable } from "./x402-requirements";
import { holdingX402Lease, lapsedLease } from "./x402-settler-lease";

/** What settling one recorded authorization needs. */
export type X402Settling = {
  facilitator: FacilitatorClient;
  payload: PaymentPayload;
  requirements: PaymentRequirements;
  asset: X402Payable;
  now: Date;
  /**
   * Whether the facilitator records each transaction on the row before it broadcasts it (the
   * built-in one in this process): only then does a refusal with none recorded mean nothing was
   * sent (lib/x402/facilitator-client.ts).
   */
  recordsBroadcasts: boolean;
};

type Outcome = {
  status: "SETTLED" | "FAILED" | "SETTLING";
  transaction: string | null;
  errorReason: string | null;
  gasUsd?: string;
};

/** The facilitator's answer, or undefined when none came (unreachable, timed out, cut off). */
async function askToSettle(row: X402Settlement, { facilitator, payload, requirements }: X402Settling) {
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
 * The settlement's outcome, or undefined when the chain cannot be read now. Only the built-in
 * facilitator in this process is taken at its word when it reports success; any other's success
 * is checked on chain like a failure (a facilitator over HTTP may lie or be wrong): settled only
 * once the token shows the authorization used in a transfer that paid us, with the chain's
 * transaction, never the one it named. A payment whose transfer may still land stays SETTLING:
 * FAILED only when a facilitator that records its broadcasts refused it with nothing sent (no
 * transaction in its answer, none recorded on the row), or when the chain says it can never land
 * (lib/x402/decide-x402-settlement.ts: canceled, its nonce spent elsewhere, its window closed, or
 * refused with the payer short of its value). Any other facilitator's refusal (one over HTTP may
 * have broadcast and then answered a failure) leaves it to the chain. A recovery (a takeover)
 * looks on chain first, and never sends a second transaction while one may still land: it asks
 * the facilitator only when none is recorded for the row and none spends the authorization in
 * the pending block.
 */
async function settlementOutcome(
  database: Db,
  row: X402Settlement,
  settling: X402Settling,
  recovering: boolean,
): Promise<Outcome | undefined> {
  const { network } = settling.asset;
  const { now } = settling;
  const wallets = await findFacilitatorWallets(database, network);
  if (recovering) {
    const found = await decideX402Settlement(network, row, { sent: row.transaction, wallets, now });
    if (!found) return undefined;
    if (found.status !== "SETTLING" || row.transaction || found.sending) return found;
  }
  const answer = await askToSettle(row, settling);
  // A hash, or nothing: a facilitator's answer is not trusted to be well-formed.
  const named = answer && isTransactionHash(answer.transaction) ? answer.transaction : null;
  if (answer?.success && settling.recordsBroadcasts && named) {
    metrics().x402Settlements.inc({ result: "settled" });
    const gas = await findSettlementGas(network, named, row, wallets, now);
    return { status: "SETTLED", transaction: named, errorReason: null, gasUsd: gas?.toString() };
  }
  const recorded = await database.x402Settlement.findUniqueOrThrow({
    where: { id: row.id },
    select: { transaction: true },
  });
  const sent = named ?? recorded.transaction;
  const refusal = answer !== undefined && !answer.success && answer.errorReason !== "settlement_pending";
  const found = await decideX402Settlement(network, row, { sent, wallets, now, refused: refusal });
  if (!found) return undefined;
  const refused = settling.recordsBroadcasts && refusal && !sent;
  // Used on chain is settled whatever the answer; a refusal known to have sent nothing fails at once.
  const status = found.status === "SETTLING" && refused ? "FAILED" : found.status;
  metrics().x402Settlements.inc({
    result: status === "SETTLED" ? "settled" : status === "FAILED" ? "failed" : "pending",
  });
  // The chain's reason when it decided; else the refusal's, one of the codes we answer with.
  const errorReason =
    status !== "FAILED"
      ? null
      : (found.errorReason ?? x402ErrorCode(answer?.errorReason, "settlement_failed"));
  return { ...found, status, errorReason };
}

/**
 * Settles the row's authorization (the caller holds its lease: it created the row or took it
 * over), then records the outcome in one short statement that only a SETTLING row takes; a
 * paylink's invoice that was not paid is withdrawn. No connection is held while the chain is
 * awaited. A payment still pending stays SETTLING with what is known (its transaction, the gas
 * that cost) and its lease handed back, so the payer's next copy looks at the chain at once.
 */
export async function settleX402Authorization(
  database: Db,
  row: X402Settlement,
  settling: X402Settling,
  recovering: boolean,
): Promise<X402Settlement> {
  const outcome = await holdingX402Lease(database, row.id, () =>
    settlementOutcome(database, row, settling, recovering),
  );
  const { status, transaction, errorReason, gasUsd } = outcome ?? {
    status: "SETTLING",
    transaction: null,
    errorReason: null,
  };
  const known = { ...(transaction ? { transaction } : {}), ...(gasUsd ? { gasUsd } : {}) };
  // The row as this statement left it; read again only when another settler decided it first.
  const [updated] = await database.x402Settlement.updateManyAndReturn({
    where: { id: row.id, status: "SETTLING" },
    data: status === "SETTLING" ? { ...known, updatedAt: lapsedLease() } : { status, errorReason, ...known },
  });
  if (!updated) return database.x402Settlement.findUniqueOrThrow({ where: { id: row.id } });
  if (status === "FAILED") await withdrawUnpaidX402Invoice(database, updated, settling.now);
  return updated;
}
