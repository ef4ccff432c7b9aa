import { z } from "zod";
import type { Invoice } from "../generated/prisma/client";

export const walletTransactionObject = z
  .object({
    object: z.literal("wallet_transaction"),
    paymentId: z.string(),
    network: z.string(),
    chain: z.string().meta({ description: "The Wallet Standard chain to sign for, e.g. solana:mainnet" }),
    transaction: z.string().meta({
      description:
        "The unsigned transaction (base64 wire bytes), the wallet its fee payer: its transfer of what is left to the invoice's receiver, carrying the invoice's reference",
    }),
  })
  .meta({ id: "WalletTransaction" });

/** The transaction a browser wallet signs and sends to pay the invoice. */
export function serializeWalletTransaction(built: {
  invoice: Invoice;
  chain: string;
  transaction: string;
}): z.output<typeof walletTransactionObject> {
  return {
    object: "wallet_transaction",
    paymentId: built.invoice.id,
    network: built.invoice.network,
    chain: built.chain,
    transaction: built.transaction,
  };
}
