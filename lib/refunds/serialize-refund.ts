import { z } from "zod";
import type { Refund } from "../generated/prisma/client";
import { formatDecimal } from "../money/decimal";
import { decimalString, isoTimestamp } from "../openapi/common-schemas";
import { claimUrlFor } from "./claim-token";

export const refundStatusValues = [
  "requires_approval",
  "pending_claim",
  "pending",
  "submitted",
  "succeeded",
  "failed",
] as const;

export const refundObject = z
  .object({
    id: z.string().meta({ example: "rfd_4fKq2cVb8mZ1xT9a" }),
    object: z.literal("refund"),
    invoiceId: z.string(),
    checkoutSessionId: z.string(),
    network: z.string(),
    token: z.string(),
    amount: decimalString.meta({ description: "In the invoice's token", example: "16.5" }),
    status: z.enum(refundStatusValues).meta({
      description:
        "requires_approval (an agent asked beyond its cap: an owner decides) → pending_claim (waits for the buyer's address) → pending → submitted → succeeded | failed",
    }),
    destination: z.enum(["payer", "claim", "address"]),
    toAddress: z.string().nullable().meta({ description: "Null until the buyer claims a claim refund" }),
    claimUrl: z
      .string()
      .nullable()
      .meta({ description: "The buyer's claim page while the claim is open; null otherwise" }),
    txHash: z.string().nullable(),
    reason: z.string().nullable(),
    failureReason: z.string().nullable(),
    pendingReason: z
      .string()
      .nullable()
      .meta({ description: "Why a pending refund has not been sent yet (e.g. the refund wallet is short)" }),
    createdAt: isoTimestamp,
    updatedAt: isoTimestamp,
  })
  .meta({ id: "Refund" });

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
