import { z } from "zod";
import { decimalString, isoTimestamp } from "./common";

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
    claimUrl: z.string().nullable().optional().meta({
      description:
        "The buyer's claim page while the claim is open, null otherwise. A bearer link that moves money: present only for the API key and an owner in the dashboard; omitted for agent credentials, OAuth tokens, members, MCP tools and webhook events",
    }),
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
