import { type Hex, keccak256, type PrivateKeyAccount, type PublicClient, type Transaction } from "viem";
import { type FacilitatorNonce, facilitatorNonce, selfTransferGas } from "./replace-facilitator-transaction";

/**
 * The facilitator wallet's transaction at `nonce` as the node shows it, sent by a process other
 * than this one (one that died after broadcasting it): looked for by the hashes recorded on
 * settlements' rows (`recorded`: a node shows a transaction it holds by its hash, one priced
 * under the base fee too), then in the node's pending block (a replacement the other process
 * sent, which no row records). Its bytes are signed again from its fields (the same key signs the
 * same bytes), to be sent again past the fee cap. A node that shows none (it dropped it, or
 * another behind the same provider holds it) gets a transfer of nothing to the wallet itself at
 * the network's fees, not yet sent: its replacement fills the nonce. A transaction that moves
 * coin is no settlement's, and is filled the same way at its own fees.
 */
export async function findFacilitatorTransaction(
  client: PublicClient,
  account: PrivateKeyAccount,
  { nonce, chainId, recorded }: { nonce: number; chainId: number; recorded: Hex[] },
): Promise<FacilitatorNonce> {
  const ours = (transaction: Transaction | undefined) =>
    transaction?.from.toLowerCase() === account.address.toLowerCase() && transaction.nonce === nonce
      ? transaction
      : undefined;
  const found =
    (await Promise.all(recorded.map((hash) => client.getTransaction({ hash }).catch(() => undefined)))).find(
      ours,
    ) ??
    (await client
      .getBlock({ blockTag: "pending", includeTransactions: true })
      .then((block) => block.transactions.find(ours))
      // A provider without a pending block: none shown.
      .catch(() => undefined));
  const fees = found
    ? {
        maxFeePerGas: (found.maxFeePerGas ?? found.gasPrice) as bigint,
        maxPriorityFeePerGas: (found.maxPriorityFeePerGas ?? found.gasPrice) as bigint,
      }
    : await client.estimateFeesPerGas();
  const fields =
    found?.to && found.value === 0n
      ? { to: found.to, data: found.input, gas: found.gas }
      : { to: account.address, data: "0x" as Hex, gas: selfTransferGas };
  const unsigned = {
    ...fields,
    nonce,
    maxFeePerGas: fees.maxFeePerGas,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas as bigint,
    chainId,
  };
  const raw = await account.signTransaction({ ...unsigned, type: "eip1559" });
  return facilitatorNonce({ ...unsigned, raw, hash: found?.hash ?? keccak256(raw) });
}
