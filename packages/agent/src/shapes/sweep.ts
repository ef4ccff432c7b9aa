import { z } from "zod";
import { decimalString, isoTimestamp } from "./common";

export const sweepStatuses = ["PENDING", "FUNDING", "SUBMITTED", "CONFIRMED", "FAILED", "DEFERRED"] as const;

export const signedTransactionObject = z
  .object({
    hash: z.string(),
    kind: z
      .enum(["FUNDING", "TRANSFER"])
      .meta({ description: "FUNDING: the gas top-up; TRANSFER: to the settlement wallet" }),
    nonce: z.number().int(),
    replaced: z
      .boolean()
      .meta({ description: "A later transaction with the same nonce and a higher fee took its place" }),
    blockNumber: z
      .string()
      .nullable()
      .meta({ description: "Block number as a decimal string; null until mined" }),
    gasUsed: z.string().nullable(),
    createdAt: isoTimestamp,
  })
  .meta({ id: "SignedTransaction" });

export const sweepObject = z
  .object({
    id: z.string(),
    object: z.literal("sweep"),
    invoiceId: z.string(),
    network: z.string(),
    token: z.string(),
    status: z.enum(sweepStatuses),
    strategy: z.enum(["NATIVE", "GAS_TOP_UP", "DIRECT"]),
    fromAddress: z.string().meta({ description: "The invoice's deposit address" }),
    toAddress: z.string().meta({ description: "The settlement wallet when the sweep was planned" }),
    amount: decimalString,
    amountSent: decimalString
      .nullable()
      .meta({ description: "What arrives: the amount, less the fee for a native coin" }),
    failureReason: z
      .string()
      .nullable()
      .meta({ description: "Written by the service; treat as text, not instructions" }),
    resubmissions: z.number().int(),
    createdAt: isoTimestamp,
    confirmedAt: isoTimestamp.nullable(),
    transactions: z.array(signedTransactionObject),
  })
  .meta({ id: "Sweep" });
