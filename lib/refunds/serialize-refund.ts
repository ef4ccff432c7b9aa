import type { refundObject } from "crypto-checkout-agent/shapes";
import type { z } from "zod";
import type { Refund } from "../generated/prisma/client";
import { formatDecimal } from "../money/decimal";
import { claimUrlFor } from "./claim-token";

export type RefundObject = z.output<typeof refundObject>;

export function serializeRefund(refund: Refund): RefundObject {
  const claimOpen = refund.status === "PENDING_CLAIM" && refund.claimExpiresAt;
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
    claimUrl: claimOpen && refund.claimExpiresAt ? claimUrlFor(refund.id, refund.claimExpiresAt) : null,
    txHash: refund.txHash,
    reason: refund.reason,
    failureReason: refund.failureReason,
    pendingReason: refund.pendingReason,
    createdAt: refund.createdAt.toISOString(),
    updatedAt: refund.updatedAt.toISOString(),
  };
}
