import { type Hex, keccak256, type PrivateKeyAccount, type PublicClient, type Transaction } from "viem";
import { readTransferCall } from "./read-transfer-call";
import {
  type FacilitatorNonce,
  type FacilitatorTransaction,
  selfTransferGas,
} from "./replace-facilitator-transaction";

/** What the wallet ever sends: an authorization's transfer, or a transfer of nothing to itself. */
function settlementData(account: PrivateKeyAccount, to: Hex, data: Hex): boolean {
  if (to.toLowerCase() === account.address.toLowerCase()) return data === "0x";
  return readTransferCall(data) !== undefined;
}

/**
 * The node's transaction signed again from its fields, if it is one this wallet signed: the same
 * key signs the same fields to the same bytes (RFC 6979), so only a transaction we sent hashes to
 * the hash the node names. A node that invents one "from" the wallet (a provider lying, or a
 * plain-HTTP RPC tampered with) gets nothing signed but what it can already see.
 */
async function signedByUs(
  account: PrivateKeyAccount,
  found: Transaction,
  chainId: number,
): Promise<FacilitatorTransaction | undefined> {
  if (found.type !== "eip1559" || !found.to || found.value !== 0n) return undefined;
  if (!settlementData(account, found.to, found.input)) return undefined;
  const unsigned = {
    to: found.to,
    data: found.input,
    nonce: found.nonce,
    gas: found.gas,
    maxFeePerGas: found.maxFeePerGas,
    maxPriorityFeePerGas: found.maxPriorityFeePerGas,
    chainId,
  };
  const raw = await account.signTransaction({ ...unsigned, type: "eip1559" });
  return keccak256(raw) === found.hash ? { ...unsigned, raw, hash: found.hash } : undefined;
}

/**
 * The facilitator wallet's transaction at `nonce` as the node shows it, sent by a process other
 * than this one (one that died after broadcasting it): looked for by the hashes recorded on
 * settlements' rows (`recorded`: a node shows a transaction it holds by its hash, one priced
 * under the base fee too), then in the node's pending block (a replacement the other process
 * sent, which no row records). Only one this wallet signed (signedByUs: an authorization's
 * transfer or a transfer of nothing to itself, whose fields sign again to its hash) is taken, to
 * be sent again past the fee cap; its caps count from the network's fees now when those are
 * lower, so a nonce taken over again and again (a process crash-looping) does not raise them
 * each time. A node that shows none (it dropped it, another behind the same provider holds it,
 * or what it shows is not ours) gets a transfer of nothing to the wallet itself at the network's
 * fees, not yet sent: its replacement fills the nonce.
 */
export async function findFacilitatorTransaction(
  client: PublicClient,
  account: PrivateKeyAccount,
  { nonce, chainId, recorded }: { nonce: number; chainId: number; recorded: Hex[] },
): Promise<FacilitatorNonce> {
  const ours = (transaction: Transaction | undefined): transaction is Transaction =>
    transaction?.from.toLowerCase() === account.address.toLowerCase() && transaction.nonce === nonce;
  const shown = [
    ...(await Promise.all(recorded.map((hash) => client.getTransaction({ hash }).catch(() => undefined)))),
    ...(await client
      .getBlock({ blockTag: "pending", includeTransactions: true })
      .then((block) => block.transactions as Transaction[])
      // A provider without a pending block: none shown.
      .catch(() => [])),
  ].filter(ours);
  let found: FacilitatorTransaction | undefined;
  for (const transaction of shown) {
    found = await signedByUs(account, transaction, chainId);
    if (found) break;
  }
  const network = await client.estimateFeesPerGas();
  const networkFees = {
    maxFeePerGas: network.maxFeePerGas,
    maxPriorityFeePerGas: network.maxPriorityFeePerGas as bigint,
  };
  if (found) {
    const lower = (a: bigint, b: bigint) => (a < b ? a : b);
    const first = {
      ...found,
      maxFeePerGas: lower(found.maxFeePerGas, networkFees.maxFeePerGas),
      maxPriorityFeePerGas: lower(found.maxPriorityFeePerGas, networkFees.maxPriorityFeePerGas),
    };
    return { first, current: found, hashes: [found.hash] };
  }
  const unsigned = {
    to: account.address,
    data: "0x" as Hex,
    gas: selfTransferGas,
    nonce,
    ...networkFees,
    chainId,
  };
  const raw = await account.signTransaction({ ...unsigned, type: "eip1559" });
  const fill = { ...unsigned, raw, hash: keccak256(raw) };
  return { first: fill, current: fill, hashes: [fill.hash] };
}
