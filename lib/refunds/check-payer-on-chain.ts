import {
  type Address,
  erc20Abi,
  type Hex,
  isAddressEqual,
  type PublicClient,
  parseEventLogs,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
} from "viem";
import type { TokenConfig } from "../chains/networks";
import type { RefundRefusal } from "./check-refund-destination";

/** What the signer reads of a refund to the payer: where it goes, and the invoice's payments. */
export type PayerRefundFacts = {
  toAddress: string | null;
  invoice: {
    depositAddress: string;
    payments: { txHash: string; logIndex: number; fromAddress: string | null; status: string }[];
  };
};

/**
 * The signer's own reading of the chain for a refund to the payer: the database row says who paid,
 * but a row can be wrong or changed, so the refund goes out only when one of the invoice's counted
 * payments recorded from that address is, on chain, a successful transfer of the invoice's token
 * from it to the invoice's deposit address (the ERC-20 Transfer log at its index, or the native
 * transaction's sender and recipient). A node that cannot answer throws: the refund waits.
 */
export async function checkPayerOnChain(
  client: PublicClient,
  token: Pick<TokenConfig, "address">,
  refund: PayerRefundFacts,
): Promise<RefundRefusal | null> {
  const to = refund.toAddress as Address;
  const deposit = refund.invoice.depositAddress as Address;
  const claimed = refund.invoice.payments.filter(
    (payment) =>
      payment.status !== "REORGED" &&
      payment.fromAddress &&
      isAddressEqual(payment.fromAddress as Address, to),
  );
  for (const payment of claimed) {
    if (await sentOnChain(client, token, payment, to, deposit)) return null;
  }
  return {
    reason: "payer_not_on_chain",
    message: `Refused to pay ${to}: no transfer from it to the invoice's address ${deposit} is on chain.`,
  };
}

async function sentOnChain(
  client: PublicClient,
  token: Pick<TokenConfig, "address">,
  payment: { txHash: string; logIndex: number },
  from: Address,
  deposit: Address,
): Promise<boolean> {
  const hash = payment.txHash as Hex;
  try {
    const receipt = await client.getTransactionReceipt({ hash });
    if (receipt.status !== "success") return false;
    if (token.address) {
      const tokenAddress = token.address as Address;
      return parseEventLogs({ abi: erc20Abi, eventName: "Transfer", logs: receipt.logs }).some(
        (log) =>
          log.logIndex === payment.logIndex &&
          isAddressEqual(log.address, tokenAddress) &&
          isAddressEqual(log.args.from, from) &&
          isAddressEqual(log.args.to, deposit) &&
          log.args.value > 0n,
      );
    }
    const transaction = await client.getTransaction({ hash });
    return (
      isAddressEqual(transaction.from, from) &&
      transaction.to !== null &&
      isAddressEqual(transaction.to, deposit) &&
      transaction.value > 0n
    );
  } catch (error) {
    // The node answered that there is no such transaction: nothing was sent.
    if (error instanceof TransactionReceiptNotFoundError || error instanceof TransactionNotFoundError) {
      return false;
    }
    throw error;
  }
}
