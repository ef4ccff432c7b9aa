import { z } from "zod";
import { config } from "../config";
import { Money } from "../money/decimal";
import { decimalString, isoTimestamp } from "../openapi/common-schemas";
import { invoiceStatuses } from "./invoice-state";

/** The payment part of the merchant's session view: present once an invoice exists. */
export const paymentSummaryObject = z
  .object({
    invoiceId: z.string(),
    status: z.enum(invoiceStatuses),
    network: z.string(),
    token: z.string(),
    amountDue: decimalString,
    amountPaid: decimalString,
    overpaid: decimalString.meta({ description: "Received beyond the amount due" }),
    amountUsd: decimalString.meta({ description: "The price in USD, frozen at the quote" }),
    rate: decimalString.meta({
      description: "Token units per unit of the pricing currency, frozen at the quote",
    }),
    deadline: isoTimestamp,
  })
  .meta({ id: "PaymentSummary" });

export type PaymentSummary = z.output<typeof paymentSummaryObject>;

/** A token amount at the token's own precision ("49.000000" for USDC), from any decimal text. */
export function formatTokenAmount(networkId: string, symbol: string, value: { toString(): string }): string {
  const network = config().networks.find((candidate) => candidate.id === networkId);
  const decimals = network?.tokens.find((token) => token.symbol === symbol)?.decimals ?? 18;
  return new Money(value.toString()).toFixed(decimals);
}
