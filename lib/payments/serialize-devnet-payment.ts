import { decimalString } from "crypto-checkout-agent/shapes";
import { z } from "zod";
import type { Invoice } from "../generated/prisma/client";

export const devnetPaymentObject = z
  .object({
    object: z.literal("devnet_payment"),
    paymentId: z.string(),
    network: z.string(),
    token: z.string(),
    amount: decimalString,
    depositAddress: z.string(),
    txHash: z.string(),
  })
  .meta({ id: "DevnetPayment" });

/** The test wallet's transfer; the watcher records it like any other. */
export function serializeDevnetPayment(sent: {
  invoice: Invoice;
  token: { symbol: string };
  amount: string;
  txHash: string;
}): z.output<typeof devnetPaymentObject> {
  return {
    object: "devnet_payment",
    paymentId: sent.invoice.id,
    network: sent.invoice.network,
    token: sent.token.symbol,
    amount: sent.amount,
    depositAddress: sent.invoice.depositAddress,
    txHash: sent.txHash,
  };
}
