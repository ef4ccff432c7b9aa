import type { FacilitatorClient } from "@x402/core/server";
import { type PaymentPayload, type PaymentRequirements, SettleError } from "@x402/core/types";
import type { Db } from "../db/client";
import type { X402Settlement } from "../generated/prisma/client";
import { log } from "../log";
import { withdrawUnpaidX402Invoice } from "./withdraw-unpaid-x402-invoice";
import { x402ErrorCode } from "./x402-payment-errors";
import { holdingX402Lease } from "./x402-settler-lease";

/**
 * Asks the signing role's facilitator (over HTTP, for a web tier holding no key) to settle a
 * recorded payment by transaction: it checks it again, records the co-signed transaction on the
 * row before sending it, sends and follows it (lib/x402/create-transaction-facilitator.ts). The
 * caller holds the row's lease meanwhile. Its answer is not taken at its word: what it recorded on
 * the row is followed on chain by the caller. Only a refusal with nothing recorded, so nothing
 * sent, fails the row at once (in one statement that a row gaining a transaction meanwhile
 * escapes), a paylink's invoice withdrawn. Returns the row as it now stands.
 */
export async function askX402TransactionSettlement(
  database: Db,
  row: X402Settlement,
  facilitator: FacilitatorClient,
  payment: { payload: PaymentPayload; requirements: PaymentRequirements },
  now: Date,
): Promise<X402Settlement> {
  const answer = await holdingX402Lease(database, row.id, () =>
    facilitator.settle(payment.payload, payment.requirements).catch((error) => {
      // A refusal arrives as an HTTP error over HTTPFacilitatorClient.
      if (error instanceof SettleError) return { success: false, errorReason: error.errorReason };
      log.warn({ err: error, settlementId: row.id }, "x402 facilitator settle failed");
      return undefined;
    }),
  );
  const current = await database.x402Settlement.findUniqueOrThrow({ where: { id: row.id } });
  const refused = answer?.success === false && answer.errorReason !== "settlement_pending";
  if (current.status !== "SETTLING" || current.signedTransaction !== null || !refused) return current;
  const { count } = await database.x402Settlement.updateMany({
    where: { id: row.id, status: "SETTLING", signedTransaction: null },
    data: { status: "FAILED", errorReason: x402ErrorCode(answer.errorReason, "settlement_failed") },
  });
  if (count === 1) await withdrawUnpaidX402Invoice(database, current, now);
  return database.x402Settlement.findUniqueOrThrow({ where: { id: row.id } });
}
