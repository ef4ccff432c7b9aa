import type { refundObject } from "crypto-checkout-agent/shapes";
import type { z } from "zod";
import { type Actor, allows } from "../authority/authorize";
import type { Refund } from "../generated/prisma/client";
import { formatDecimal } from "../money/decimal";
import { claimUrlFor } from "./claim-token";

export type RefundObject = z.output<typeof refundObject>;

/**
 * Who reads a refund: a caller of REST or the dashboard, by its authority; or `null` for answers
 * that reach people or programs who do not decide (webhook events, MCP tool results, which a model
 * and its app read), whoever asked.
 */
export type RefundReader = Actor | null;

/**
 * The refund object for `reader`. A claim link is a bearer capability (whoever holds it types an
 * address and is paid), so `claimUrl` is there only for an owner signed in and the API key
 * (lib/authority/operations.ts `refunds.readClaimLinks`); everyone else gets the object without it.
 * The API key sees only the links it asked for: a claim of those waits for an owner unless the
 * buyer's emailed code proves it (lib/refunds/check-refund-destination.ts), whereas a link an owner
 * asked for or confirmed pays at once, so a stolen key reading one could pay itself.
 */
export function serializeRefund(refund: Refund, reader: RefundReader): RefundObject {
  const claimOpen = refund.status === "PENDING_CLAIM" && refund.claimExpiresAt;
  const claimUrl = claimOpen && refund.claimExpiresAt ? claimUrlFor(refund.id, refund.claimExpiresAt) : null;
  return {
    id: refund.id,
    object: "refund",
    invoiceId: refund.invoiceId,
    checkoutSessionId: refund.checkoutSessionId,
    network: refund.network,
    token: refund.token,
    amount: formatDecimal(refund.amount),
    status: refund.status.toLowerCase() as RefundObject["status"],
    destination: refund.destination.toLowerCase() as RefundObject["destination"],
    toAddress: refund.toAddress,
    ...(mayReadClaimLink(refund, reader) ? { claimUrl } : {}),
    txHash: refund.txHash,
    reason: refund.reason,
    failureReason: refund.failureReason,
    pendingReason: refund.pendingReason,
    createdAt: refund.createdAt.toISOString(),
    updatedAt: refund.updatedAt.toISOString(),
  };
}

function mayReadClaimLink(refund: Refund, reader: RefundReader): boolean {
  if (!reader || !allows(reader, "refunds.readClaimLinks")) return false;
  return reader.kind !== "api_key" || refund.requestedByKind === "api_key";
}
