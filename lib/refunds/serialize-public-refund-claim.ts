import { decimalString, isoTimestamp } from "crypto-checkout-agent/shapes";
import { z } from "zod";
import { config } from "../config";
import { formatDecimal } from "../money/decimal";
import { logoPath } from "../organizations/serialize-organization";
import { claimExpiredReason } from "./expire-refund-claim";
import type { ClaimableRefund } from "./find-refund-by-claim-token";

export const publicRefundClaimStatuses = [
  "open",
  "locked",
  "expired",
  "cancelled",
  "pending",
  "in_review",
  "submitted",
  "succeeded",
  "failed",
] as const;
export type PublicRefundClaimStatus = (typeof publicRefundClaimStatuses)[number];

/** What the buyer's claim page shows: no merchant internals, no reason, no other refunds. */
export const publicRefundClaimObject = z
  .object({
    object: z.literal("refund_claim"),
    status: z.enum(publicRefundClaimStatuses),
    merchantName: z.string(),
    brandColor: z.string().nullable(),
    logoUrl: z.string().nullable(),
    amount: decimalString,
    token: z.string(),
    network: z.string(),
    networkName: z.string(),
    explorerUrl: z.string().nullable(),
    toAddress: z.string().nullable(),
    txHash: z.string().nullable(),
    expiresAt: isoTimestamp,
    emailHint: z
      .string()
      .nullable()
      .meta({ description: "The buyer's email, masked, when the merchant knows it" }),
    codeRequired: z.boolean().meta({
      description: "Whether a claim needs the one-time code emailed to the buyer (when the email is known)",
    }),
  })
  .meta({ id: "RefundClaim" });

export type PublicRefundClaim = z.output<typeof publicRefundClaimObject>;

/** "j…@example.com": enough for the buyer to recognise, little for whoever else holds the link. */
export function maskEmail(email: string): string {
  const [local, domain] = email.split("@");
  return `${local.slice(0, 1)}…@${domain}`;
}

function publicStatus(refund: ClaimableRefund): PublicRefundClaimStatus {
  switch (refund.status) {
    // Past its caps of codes or wrong tries, until an owner re-sends the link (lib/refunds/lock-claim-link.ts).
    case "PENDING_CLAIM":
      return refund.claimLockedAt ? "locked" : "open";
    case "FAILED":
      if (refund.claimedAt) return "failed";
      // Never claimed: its link expired, or the merchant cancelled it.
      return refund.failureReason === claimExpiredReason ? "expired" : "cancelled";
    case "SUBMITTED":
      return "submitted";
    case "SUCCEEDED":
      return "succeeded";
    // Claimed, and an owner decides before anything is sent (a claim not proven by the emailed code).
    case "REQUIRES_APPROVAL":
      return "in_review";
    default:
      return "pending";
  }
}

export function serializePublicRefundClaim(refund: ClaimableRefund): PublicRefundClaim {
  const network = config().networks.find((candidate) => candidate.id === refund.network);
  const { organization } = refund;
  return {
    object: "refund_claim",
    status: publicStatus(refund),
    merchantName: organization.brandDisplayName ?? organization.name,
    brandColor: organization.brandColor,
    logoUrl: organization.brandLogo ? logoPath(organization.brandLogo.id) : null,
    amount: formatDecimal(refund.amount),
    token: refund.token,
    network: refund.network,
    networkName: network?.name ?? refund.network,
    explorerUrl: network?.explorerUrl ?? null,
    toAddress: refund.toAddress,
    txHash: refund.txHash,
    expiresAt: (refund.claimExpiresAt as Date).toISOString(),
    emailHint: refund.claimEmail ? maskEmail(refund.claimEmail) : null,
    codeRequired: refund.claimEmail !== null,
  };
}
