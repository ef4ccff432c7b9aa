import { eip3009ABI } from "@x402/evm";
import { type Address, decodeFunctionData, type Hex, type PrivateKeyAccount, type PublicClient } from "viem";
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

/**
 * One nonce of the facilitator wallet: the transaction first known at it (its fees set the caps),
 * the last one sent at it, and the hash of each, any of which may be the one mined.
 */
export type FacilitatorNonce = {
  first: FacilitatorTransaction;
  current: FacilitatorTransaction;
  hashes: Hex[];
};

export const facilitatorNonce = (first: FacilitatorTransaction): FacilitatorNonce => ({
  first,
  current: first,
  hashes: [first.hash],
});

/** The gas of a transfer of no value to oneself: what frees a nonce. */
export const selfTransferGas = 21_000n;

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
 * Sends the replacement of `nonce`'s current transaction, which holds back every later nonce of
 * the wallet, with fees a quarter higher (lib/signer/bump-fee.ts; what the network asks, if
 * more), never past feeCapMultiple times the first's: the same transfer while the token would
 * still take it at the latest block (the pending one holds the stuck transfer, which spends the
 * authorization) and its window is open, else (or past that cap) a transfer of nothing to itself,
 * so the nonce is used and the authorization left to the chain. That one uses a fraction of the
 * settlement's gas, so it may offer more per gas within what the first could have cost at its
 * cap: past the cap a base fee that stays high no longer holds the nonce, and every later
 * settlement of the wallet, until it falls. Past that, the same bytes again, for a node that lost
 * them. Records what it sent on `nonce`; a failure is logged, never thrown (the caller tries again
 * later). Shared by a settlement awaiting its receipt (await-facilitator-receipt.ts) and the
 * signer's watch of nonces another process left (create-facilitator-signer.ts).
 */
export async function replaceFacilitatorTransaction(
  client: PublicClient,
  account: PrivateKeyAccount,
  nonce: FacilitatorNonce,
): Promise<void> {
  const stuck = nonce.current;
  try {
    const cap = nonce.first.maxFeePerGas * feeCapMultiple;
    const selfTransferCap = (cap * nonce.first.gas) / selfTransferGas;
    const network = await client.estimateFeesPerGas();
    const bumped = bumpedFees(stuck);
    const larger = (a: bigint, b: bigint) => (a > b ? a : b);
    const fees = {
      maxFeePerGas: larger(network.maxFeePerGas, bumped.maxFeePerGas),
      maxPriorityFeePerGas: larger(network.maxPriorityFeePerGas ?? 0n, bumped.maxPriorityFeePerGas),
    };
    if (fees.maxFeePerGas > selfTransferCap) {
      await client.sendRawTransaction({ serializedTransaction: stuck.raw }).catch(() => undefined);
      return;
    }
    const usable =
      fees.maxFeePerGas <= cap &&
      !windowClosed(stuck.data) &&
      (await client
        .estimateGas({
          account: account.address,
          to: stuck.to,
          data: stuck.data,
          blockTag: "latest",
          ...fees,
        })
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
    log.warn({ stuck: stuck.hash, replacement: hash }, "x402 settlement transaction replaced");
    nonce.current = { ...next, raw, hash };
    if (!nonce.hashes.includes(hash)) nonce.hashes.push(hash);
  } catch (error) {
    log.warn({ err: error, hash: stuck.hash }, "x402 settlement transaction not replaced");
  }
}
