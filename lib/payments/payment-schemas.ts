import { listTransactions } from "crypto-checkout-agent/contracts";
import { z } from "zod";
import { checkPositiveDecimal } from "../money/decimal";
import { pagingQuery } from "../validation/fields";
import { refineContractInput } from "../validation/refine-contract-input";

/** POST /api/public/payments: the buyer picks how to pay a session. */
export const startPaymentSchema = z
  .strictObject({
    checkoutSessionId: z
      .string({ error: "must be a checkout session id" })
      .regex(/^ycs_[0-9A-Za-z]{24}$/, { error: "must be a checkout session id" }),
    network: z.string({ error: "must be a network id such as devnet or base" }).min(1).max(32),
    token: z.string({ error: "must be a token symbol such as USDC" }).min(1).max(10),
  })
  .meta({ id: "StartPayment" });

export type StartPaymentInput = z.output<typeof startPaymentSchema>;

const amountProblems = {
  not_a_decimal_string: 'must be a plain decimal string such as "0.5" (no sign, exponent or spaces)',
  too_many_decimals: "has more than 18 decimal places",
  not_positive: "must be greater than zero",
  too_large: "is too large",
} as const;

/** POST /api/public/payments/{id}/devnet-pay: the test wallet pays, the remaining amount by default. */
export const devnetPaySchema = z
  .strictObject({
    amount: z
      .string({ error: 'must be a decimal string such as "0.5", not a number' })
      .superRefine((value, context) => {
        const problem = checkPositiveDecimal(value, 18, 30);
        if (problem) context.addIssue({ code: "custom", message: amountProblems[problem], input: value });
      })
      .optional()
      .meta({ description: "Token amount to send; the remaining amount when absent" }),
  })
  .meta({ id: "DevnetPay" });

export type DevnetPayInput = z.output<typeof devnetPaySchema>;

/** GET /api/private/transactions */
export const listTransactionsQuery = refineContractInput(listTransactions.input.query, pagingQuery.shape);

/** POST /api/public/payments/{id}/wallet-transaction: the browser wallet that will pay. */
export const walletTransactionSchema = z
  .strictObject({
    account: z
      .string({ error: "must be the wallet's address" })
      .min(1, { error: "must be the wallet's address" })
      .max(64, { error: "must be the wallet's address" })
      .meta({
        description: "The paying wallet's address (base58 on Solana)",
        example: "AqynRZwvVqUPRwRJXvm6odUb3t93fDjnWe3p6BeuUFxD",
      }),
  })
  .meta({ id: "WalletTransactionRequest" });

export type WalletTransactionInput = z.output<typeof walletTransactionSchema>;
