import { eip3009ABI } from "@x402/evm";
import {
  type Address,
  decodeFunctionData,
  type Hex,
  type PrivateKeyAccount,
  type PublicClient,
  type TransactionReceipt,
  WaitForTransactionReceiptTimeoutError,
} from "viem";
import { log } from "../log";
import { bumpedFees, feeCapMultiple } from "../signer/bump-fee";

/** A transaction the facilitator wallet signed and sent, as it can be signed again at its nonce. */
export type FacilitatorTransaction = {
  hash: Hex;
  raw: Hex;
  nonce: number;
  to: Address;
  data: Hex;
  gas: bigint;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
  chainId: number;
};

/** The gas of a transfer of no value to oneself: what frees a nonce. */
const selfTransferGas = 21_000n;

/**
 * The receipt of the facilitator's `sent` transaction, polled while other settlements go on (no
 * queue, no database). Unmined after `stuckAfterMs`, its nonce, which every later settlement of
 * the wallet waits behind, is sent again with fees a quarter higher (lib/signer/bump-fee.ts,
 * never past feeCapMultiple times the first): the same transfer while the token would still take
 * it at the latest block (the pending one holds the stuck transfer, which spends the
 * authorization) and its window is open, else (or past that cap) a transfer of nothing to itself,
 * so the nonce is used and the authorization left to the chain; that one's fee may pass the cap
 * while it costs no more than the first transaction could at the cap; past that, the same bytes
 * again, for a node that lost them. A replacement mined throws: the facilitator then answers
 * `settlement_pending` and the settler decides the row from the chain, with the transaction that
 * landed (lib/x402/settle-x402-authorization.ts). Throws too after `timeoutMs` with nothing mined.
 */
export async function awaitFacilitatorReceipt(
  client: PublicClient,
  account: PrivateKeyAccount,
  sent: FacilitatorTransaction,
  options: { stuckAfterMs: number; timeoutMs: number; pollingMs: number },
): Promise<TransactionReceipt> {
  const deadline = Date.now() + options.timeoutMs;
  const cap = sent.maxFeePerGas * feeCapMultiple;
  // A transfer of nothing to itself uses a fraction of the settlement's gas, so it may offer more
  // per gas within what the settlement could have cost at its cap: past the cap a base fee that
  // stays high no longer holds the nonce, and every later settlement of the wallet, until it falls.
  const selfTransferCap = (cap * sent.gas) / selfTransferGas;
  const hashes = [sent.hash];
  let current = sent;
  let sentAt = Date.now();
  for (;;) {
    const receipts = await Promise.all(
      hashes.map((hash) => client.getTransactionReceipt({ hash }).catch(() => undefined)),
    );
    const mined = receipts.findIndex((receipt) => receipt !== undefined);
    if (mined === 0) return receipts[0] as TransactionReceipt;
    if (mined > 0) throw new Error(`x402 settlement ${sent.hash} replaced by ${hashes[mined]}`);
    if (Date.now() > deadline) throw new WaitForTransactionReceiptTimeoutError({ hash: sent.hash });
    if (Date.now() - sentAt >= options.stuckAfterMs) {
      const replacement = await replaceStuck(client, account, current, { cap, selfTransferCap }).catch(
        (error) => {
          log.warn({ err: error, hash: current.hash }, "x402 settlement transaction not replaced");
          return undefined;
        },
      );
      if (replacement && !hashes.includes(replacement.hash)) {
        log.warn(
          { stuck: current.hash, replacement: replacement.hash },
          "x402 settlement transaction replaced",
        );
        hashes.push(replacement.hash);
        current = replacement;
      }
      sentAt = Date.now();
    }
    await new Promise((resolve) => setTimeout(resolve, options.pollingMs));
  }
}

/**
 * Whether `data` is an authorization's transfer whose validBefore has passed by the wall clock: a
 * node may estimate at its latest block's time, which stands still while nothing is mined.
 */
function windowClosed(data: Hex): boolean {
  try {
    const { functionName, args } = decodeFunctionData({ abi: eip3009ABI, data });
    return functionName === "transferWithAuthorization" && Number(args[4]) * 1000 <= Date.now();
  } catch {
    return false;
  }
}

/**
 * Sends `stuck`'s replacement at its nonce: past `cap`, a transfer to itself up to
 * `selfTransferCap`; past that, the same bytes again. The replacement.
 */
async function replaceStuck(
  client: PublicClient,
  account: PrivateKeyAccount,
  stuck: FacilitatorTransaction,
  { cap, selfTransferCap }: { cap: bigint; selfTransferCap: bigint },
): Promise<FacilitatorTransaction> {
  const network = await client.estimateFeesPerGas();
  const bumped = bumpedFees(stuck);
  const larger = (a: bigint, b: bigint) => (a > b ? a : b);
  // What the network asks now, if that is more than a quarter up.
  const fees = {
    maxFeePerGas: larger(network.maxFeePerGas, bumped.maxFeePerGas),
    maxPriorityFeePerGas: larger(network.maxPriorityFeePerGas ?? 0n, bumped.maxPriorityFeePerGas),
  };
  if (fees.maxFeePerGas > selfTransferCap) {
    await client.sendRawTransaction({ serializedTransaction: stuck.raw }).catch(() => undefined);
    return stuck;
  }
  const usable =
    fees.maxFeePerGas <= cap &&
    !windowClosed(stuck.data) &&
    (await client
      .estimateGas({ account: account.address, to: stuck.to, data: stuck.data, blockTag: "latest", ...fees })
      .then(
        () => true,
        () => false,
      ));
  const next = usable
    ? { ...stuck, ...fees }
    : { ...stuck, ...fees, to: account.address, data: "0x" as Hex, gas: selfTransferGas };
  const raw = await account.signTransaction({
    to: next.to,
    data: next.data,
    nonce: next.nonce,
    gas: next.gas,
    maxFeePerGas: next.maxFeePerGas,
    maxPriorityFeePerGas: next.maxPriorityFeePerGas,
    chainId: next.chainId,
    type: "eip1559",
  });
  const hash = await client.sendRawTransaction({ serializedTransaction: raw });
  return { ...next, raw, hash };
}
