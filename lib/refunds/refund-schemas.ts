import { createRefund, listRefunds } from "crypto-checkout-agent/contracts";
import { refundStatusValues } from "crypto-checkout-agent/shapes";
import { z } from "zod";
import { chainFamilies } from "../chains/chain-families";
import { checkPositiveDecimal } from "../money/decimal";
import { amountField, amountProblems, pagingQuery, text } from "../validation/fields";
import { refineContractInput } from "../validation/refine-contract-input";

const addressRules = chainFamilies().map((family) => family.addresses);
const destinationError = `must be "payer", "claim" or ${addressRules.map((rules) => rules.format).join(" or ")}`;

/**
 * "payer", "claim", or an address of a chain family in its canonical spelling (an EVM one
 * checksummed; a wrong checksum is refused with its own message).
 */
const destinationField = z
  .string({ error: destinationError })
  .trim()
  .transform((value, context) => {
    if (value === "payer" || value === "claim") return value;
    const parsed = addressRules.map((rules) => rules.parse(value));
    for (const result of parsed) if ("address" in result) return result.address;
    const mistyped = parsed.find((result) => "problem" in result && result.problem === "checksum");
    context.addIssue({
      code: "custom",
      message: mistyped && "message" in mistyped ? mistyped.message : destinationError,
    });
    return z.NEVER;
  })
  .meta({
    description:
      "`payer`: the address that paid; `claim`: a link where the buyer enters an address; or an address on the invoice's network",
    example: "payer",
  });

/** POST /api/private/refunds (the amount's precision is checked against the invoice's token). */
export const createRefundSchema = refineContractInput(createRefund.input.body, {
  invoiceId: z
    .string({ error: "must be an invoice id (inv_…)" })
    .min(1, { error: "must be an invoice id (inv_…)" })
    .max(64, { error: "must be an invoice id (inv_…)" })
    .meta({ example: "inv_4fKq2cVb8mZ1xT9a" }),
  amount: amountField
    .superRefine((value, context) => {
      // Token amounts have at most 18 decimals; the token's own precision is checked on the invoice.
      const problem = checkPositiveDecimal(value, 18, 30);
      if (problem) context.addIssue({ code: "custom", message: amountProblems[problem] });
    })
    .optional()
    .meta({ description: "In the invoice's token; default: all that is left to refund", example: "16.5" }),
  destination: destinationField,
  reason: text(500).optional().meta({ description: "Shown to the buyer and in the dashboard" }),
}).meta({ id: "CreateRefund" });
export type CreateRefundInput = z.output<typeof createRefundSchema>;

export const listRefundsQuery = refineContractInput(listRefunds.input.query, {
  ...pagingQuery.shape,
  invoiceId: z.string({ error: "must be an invoice id" }).max(64).optional(),
  status: z.enum(refundStatusValues, { error: `must be one of ${refundStatusValues.join(", ")}` }).optional(),
}).meta({ id: "ListRefundsQuery" });
export type ListRefundsQuery = z.output<typeof listRefundsQuery>;
