import { decimalString, isoTimestamp } from "crypto-checkout-agent/shapes";
import { z } from "zod";
import { chainFamily } from "../chains/chain-families";
import { config } from "../config";
import type { Invoice, Payment } from "../generated/prisma/client";
import { Money } from "../money/decimal";
import { formatTokenAmount } from "../money/format-token-amount";
import { invoiceStatuses } from "./invoice-state";

export const publicPaymentObject = z
  .object({
    id: z.string(),
    object: z.literal("payment_request"),
    checkoutSessionId: z.string(),
    status: z.enum(invoiceStatuses),
    network: z.string(),
    networkName: z.string(),
    chainId: z.number().int().nullable(),
    explorerUrl: z.string().nullable().meta({
      description:
        "Block explorer base: a page is its path plus /address/… or /tx/…, its query kept (https://explorer.solana.com?cluster=devnet → https://explorer.solana.com/tx/…?cluster=devnet); null for a local chain",
    }),
    token: z.string(),
    tokenAddress: z.string().nullable(),
    tokenDecimals: z.number().int(),
    depositAddress: z.string().meta({
      description: "The address to pay: the invoice's own (EVM), or the Solana Pay recipient wallet",
    }),
    reference: z.string().nullable().meta({
      description:
        "Solana Pay's reference (base58), unique to this invoice: the transfer must carry it as a read-only key; null on EVM",
    }),
    walletChain: z.string().nullable().meta({
      description:
        "The Wallet Standard chain browser wallets pay on (solana:mainnet, solana:devnet); null where they pay through EIP-1193 (EVM)",
    }),
    paymentUri: z.string().meta({
      description:
        "What a wallet scans to pay the amount left: an EIP-681 URI (ethereum:…) or a Solana Pay transfer request (solana:…)",
    }),
    amountDue: decimalString,
    amountPaid: decimalString,
    remaining: decimalString,
    overpaid: decimalString.meta({ description: "Received beyond the amount due" }),
    requiredConfirmations: z.number().int().nullable(),
    deadline: isoTimestamp,
    quoteExpiresAt: isoTimestamp.nullable().meta({
      description:
        "The amount due is promised until then; a payment after it, before the deadline, is still accepted at that amount. Null for the currency's own stablecoin",
    }),
    payments: z.array(
      z.object({
        txHash: z.string(),
        amount: decimalString,
        confirmations: z.number().int(),
        status: z.string(),
        detectedAt: isoTimestamp,
      }),
    ),
  })
  .meta({ id: "PaymentRequest" });

export type PublicPayment = z.output<typeof publicPaymentObject>;

/** What the buyer's page needs to pay and to follow the payment: no merchant data. */
export function serializePublicPayment(invoice: Invoice & { payments: Payment[] }): PublicPayment {
  const network = config().networks.find((candidate) => candidate.id === invoice.network);
  const token = network?.tokens.find((candidate) => candidate.symbol === invoice.token);
  const format = (value: { toString(): string }) => formatTokenAmount(invoice.network, invoice.token, value);
  const balance = new Money(invoice.amountDue.toString()).minus(invoice.amountPaid.toString());
  const remaining = format(Money.max(balance, 0));
  const receiver = { address: invoice.depositAddress, reference: invoice.reference };
  return {
    id: invoice.id,
    object: "payment_request",
    checkoutSessionId: invoice.checkoutSessionId,
    status: invoice.status,
    network: invoice.network,
    networkName: network?.name ?? invoice.network,
    chainId: network?.chainId ?? null,
    explorerUrl: network?.explorerUrl ?? null,
    token: invoice.token,
    tokenAddress: token?.address ?? null,
    tokenDecimals: token?.decimals ?? 18,
    depositAddress: invoice.depositAddress,
    reference: invoice.reference,
    walletChain: (network && chainFamily(network).walletStandard?.chain(network)) ?? null,
    paymentUri: network
      ? chainFamily(network).paymentUri(network, {
          receiver,
          remaining,
          token: token ?? { symbol: invoice.token, decimals: 18 },
          label: config().serviceName,
          message: `Invoice ${invoice.id}`,
        })
      : "",
    amountDue: format(invoice.amountDue),
    amountPaid: format(invoice.amountPaid),
    remaining,
    overpaid: format(Money.max(balance.neg(), 0)),
    requiredConfirmations: network?.confirmations ?? null,
    deadline: invoice.deadline.toISOString(),
    quoteExpiresAt: invoice.quoteExpiresAt?.toISOString() ?? null,
    payments: invoice.payments
      .filter((payment) => payment.status !== "REORGED")
      .map((payment) => ({
        txHash: payment.txHash,
        amount: format(payment.amount),
        confirmations: payment.confirmations,
        status: payment.status,
        detectedAt: payment.createdAt.toISOString(),
      })),
  };
}
