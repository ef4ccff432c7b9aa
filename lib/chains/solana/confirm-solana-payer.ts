import type { Address, Signature } from "@solana/kit";
import type { PaymentOnChain } from "../chain-family";
import type { NetworkConfig } from "../networks";
import { associatedTokenAccount } from "./prepare-solana-transaction";
import { commitmentOf, type SolanaRpc, tokenTransfersInto } from "./read-solana-transfers";

/**
 * Whether the payment stands on chain as the watcher recorded it: its transaction, read at the
 * network's commitment, succeeded and its instruction at `index` is a transfer of the token's mint
 * into the receiver's token account paid by `payer` (the source account's owner). A transaction
 * the node does not have answers false; a node that cannot answer throws.
 */
export async function confirmSolanaPayer(
  rpc: SolanaRpc,
  network: NetworkConfig,
  payment: PaymentOnChain,
): Promise<boolean> {
  if (!payment.token.address) return false;
  const transaction = await rpc
    .getTransaction(payment.transaction as Signature, {
      commitment: commitmentOf(network),
      encoding: "json",
      maxSupportedTransactionVersion: 0,
    })
    .send();
  if (!transaction) return false;
  const account = await associatedTokenAccount(payment.receiver as Address, payment.token.address as Address);
  return tokenTransfersInto(
    transaction as unknown as Parameters<typeof tokenTransfersInto>[0],
    account,
    payment.token.address,
  ).some((transfer) => transfer.index === payment.index && transfer.payer === payment.payer);
}
