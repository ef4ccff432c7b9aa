import type { paymentRequestObject } from "crypto-checkout-agent/shapes";
import type { z } from "zod";
import { chainFamily } from "../chains/chain-families";
import { config } from "../config";
import type { Invoice, Payment } from "../generated/prisma/client";
import { Money } from "../money/decimal";
import { formatTokenAmount } from "../money/format-token-amount";

// The shape is the kit's (one definition for REST, OpenAPI and the tools); x402's objects name it so.
export { paymentRequestObject as publicPaymentObject } from "crypto-checkout-agent/shapes";
export type PublicPayment = z.output<typeof paymentRequestObject>;

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
