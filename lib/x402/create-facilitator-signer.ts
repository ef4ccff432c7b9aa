import { type FacilitatorEvmSigner, toFacilitatorEvmSigner } from "@x402/evm";
import {
  type Abi,
  type Address,
  concat,
  createPublicClient,
  type FeeValuesEIP1559,
  type Hex,
  http,
  keccak256,
  type PrivateKeyAccount,
} from "viem";
import type { NetworkConfig } from "../chains/networks";
import { evmChainId } from "../chains/networks";
import { awaitFacilitatorReceipt } from "./await-facilitator-receipt";
import { followChainHead } from "./follow-chain-head";
import { fundDevnetFacilitatorWallet } from "./fund-devnet-facilitator-wallet";
import { encodeCall, readTransferCall } from "./read-transfer-call";
import { type FacilitatorNonce, facilitatorNonce } from "./replace-facilitator-transaction";
import { shareRecentReads } from "./share-recent-reads";
import { watchFacilitatorNonces } from "./watch-facilitator-nonces";

/** Receipts are awaited this long before a settlement is reported pending (x402 `settlement_pending`). */
const confirmationTimeoutMs = 120_000;
/** The authorization's payer a transfer's `data` names ("" for anything else: one line for all). */
const payerOf = (data: Hex): string => readTransferCall(data)?.payer ?? "";

/** How long a payer's code read for one settlement serves its other checks. */
const codeTtlMs = 1000;

/** A settlement's transaction unmined for this many blocks is replaced at its nonce (at least 5 s). */
const stuckAfterBlocks = 5;

/**
 * The signer x402's EVM facilitator verifies and settles with on one network: reads through the
 * network's RPC, and writes signed by the facilitator wallet, which pays their gas.
 *
 * Submissions are estimated concurrently (each payer's after its previous one was broadcast),
 * then go through one queue per network (one signer per network in the process) that only
 * chooses the nonce, signs, records and broadcasts, one at a time, the next nonce kept here, so
 * concurrent settlements never share a nonce. Receipts are awaited outside the queue,
 * concurrently, so nonces go out in order without waiting for the one before to be mined; a
 * transaction unmined for `stuckAfterBlocks` blocks is replaced at its nonce, so one stuck
 * settlement does not hold back every later one (lib/x402/await-facilitator-receipt.ts); one
 * another process left unmined (it died after broadcasting) is replaced the same way by this
 * one's watch of the wallet's lowest unmined nonce (lib/x402/watch-facilitator-nonces.ts). The
 * nonce is the larger of the node's pending count, read as the settlement is prepared (outside
 * the queue), and the one kept here (a provider behind a load balancer may not count a
 * transaction it just took; another signer of the wallet may have sent one). Not lib/signer's database allocation: that exists to re-send a recorded sweep or
 * refund after a crash, while a settlement that fails is only reported, its authorization left
 * unused for the payer's retry. One process per network should settle (docs/operations.md, "x402").
 *
 * Reads and estimates are at the `pending` block: a payer's balance that a transfer waiting in
 * the mempool already spends (another settlement's, or the payer's own) does not pass verify's
 * simulation, nor a settlement's estimate, a second time.
 *
 * Each transaction, signed, is handed to `beforeBroadcast` with its hash before it is sent: it
 * records the hash (so a settlement whose send fails after the node took it is known to be
 * pending) and may refuse by throwing, and then nothing is sent. `recordedBroadcasts` lists the
 * hashes so recorded on settlements still open, where the watch finds another process's.
 */
export function createFacilitatorSigner(
  network: NetworkConfig,
  account: PrivateKeyAccount,
  hooks: {
    beforeBroadcast: (transaction: { to: Address; data: Hex; hash: Hex }) => Promise<void>;
    recordedBroadcasts: () => Promise<Hex[]>;
  },
): FacilitatorEvmSigner {
  const chainId = evmChainId(network);
  const blockTimeMs = network.blockTimeMs ?? 4000;
  // The head is read a few times a block, at most once a second.
  const pollingMs = Math.min(1000, Math.max(100, blockTimeMs / 4));
  const client = createPublicClient({
    transport: http(network.rpcUrl),
    cacheTime: 0,
    pollingInterval: pollingMs,
  });
  const following = {
    stuckAfterMs: Math.max(5000, stuckAfterBlocks * blockTimeMs),
    timeoutMs: confirmationTimeoutMs,
    blockTimeMs,
    head: followChainHead(client, pollingMs),
  };
  /**
   * Each payer's code as read within the last `codeTtlMs`: x402's verify and settle each read it
   * twice (its EIP-6492 and signature checks), right after the built-in facilitator's own fresh
   * read, which refuses a payer with code (lib/x402/create-built-in-facilitator.ts, payerRefusal).
   */
  const codes = shareRecentReads<Hex | undefined>(codeTtlMs);
  const getCode = ({ address }: { address: Address }) =>
    codes(address.toLowerCase(), () => client.getCode({ address })).value;
  /** What this signer sent and no one has awaited yet, by hash. */
  const unawaited = new Map<Hex, FacilitatorNonce>();
  /** Each nonce this signer sent or took over and saw unmined, as sent and replaced. */
  const nonces = new Map<number, FacilitatorNonce>();
  /** The nonces whose settlements await their receipts: each replaces its own. */
  const awaiting = new Set<number>();
  const watch = watchFacilitatorNonces(client, account, {
    chainId,
    stuckAfterMs: following.stuckAfterMs,
    nonces,
    awaiting,
    recordedBroadcasts: hooks.recordedBroadcasts,
  });
  /**
   * The network's fees, read at most once per block's time (at most a second): concurrent
   * settlements in one block would each read the same two values.
   */
  const fees = shareRecentReads<FeeValuesEIP1559>(Math.min(1000, blockTimeMs));
  const readFees = (): Promise<FeeValuesEIP1559> => client.estimateFeesPerGas();
  /** Each payer's last submission, broadcast or failed. */
  const payerTurns = new Map<string, Promise<unknown>>();
  let queue: Promise<unknown> = Promise.resolve();
  let nextNonce = 0;
  let funding: Promise<unknown> | undefined;

  /**
   * Fees and gas, outside the queue. A transfer that would revert (an authorization used
   * meanwhile, an expired window) fails here, before it costs gas; estimated at the fees it is
   * sent with, as a node otherwise runs it at gas price 0, where a signature checked by code (an
   * EIP-7702 delegate's) may differ.
   */
  const prepare = async (to: Address, data: Hex) => {
    funding ??= fundDevnetFacilitatorWallet(network, client, account.address).catch((error) => {
      funding = undefined;
      throw error;
    });
    await funding;
    const estimate = (at: FeeValuesEIP1559) =>
      client.estimateGas({
        account: account.address,
        to,
        data,
        blockTag: "pending",
        maxFeePerGas: at.maxFeePerGas,
        maxPriorityFeePerGas: at.maxPriorityFeePerGas,
      });
    // The node's pending count, read beside the estimate rather than in the queue's turn, the one
    // step settlements take one at a time.
    const counted = client.getTransactionCount({ address: account.address, blockTag: "pending" });
    counted.catch(() => undefined);
    const shared = fees("fees", readFees);
    const current = await shared.value;
    try {
      return { fees: current, gas: await estimate(current), counted: await counted };
    } catch (error) {
      // Fees read up to a block ago may be under a base fee that rose since: once more, at fresh ones.
      if (!shared.shared) throw error;
      const fresh = await fees("fees", readFees, { fresh: true }).value;
      return { fees: fresh, gas: await estimate(fresh), counted: await counted };
    }
  };
  /** The queue's turn: the nonce, the signature, the record, the broadcast. */
  const broadcast = async (
    to: Address,
    data: Hex,
    { fees, gas, counted }: Awaited<ReturnType<typeof prepare>>,
  ) => {
    const unsigned = {
      to,
      data,
      nonce: Math.max(counted, nextNonce),
      // Headroom over the estimate: state may change between estimate and inclusion.
      gas: (gas * 6n) / 5n,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas as bigint,
      chainId,
    };
    const raw = await account.signTransaction({ ...unsigned, type: "eip1559" });
    await hooks.beforeBroadcast({ to, data, hash: keccak256(raw) });
    const hash = await client.sendRawTransaction({ serializedTransaction: raw });
    nextNonce = unsigned.nonce + 1;
    const sent = facilitatorNonce({ ...unsigned, raw, hash });
    nonces.set(unsigned.nonce, sent);
    unawaited.set(hash, sent);
    return hash;
  };
  const awaitReceipt = (hash: Hex) => {
    const sent = unawaited.get(hash);
    unawaited.delete(hash);
    if (!sent) return client.waitForTransactionReceipt({ hash, timeout: confirmationTimeoutMs });
    const { nonce } = sent.first;
    awaiting.add(nonce);
    return awaitFacilitatorReceipt(client, account, sent, following).finally(() => awaiting.delete(nonce));
  };
  const submit = (to: Address, data: Hex): Promise<Hex> => {
    watch();
    // A payer's next transfer is estimated once its last one is broadcast, so the pending block
    // that the estimate reads holds it (a balance it spends is not spent twice).
    const payer = payerOf(data);
    const sent = (payerTurns.get(payer) ?? Promise.resolve()).then(async () => {
      const prepared = await prepare(to, data);
      const turn = queue.then(() => broadcast(to, data, prepared));
      // A failed submission gives its turn to the next one.
      queue = turn.catch(() => undefined);
      return turn;
    });
    const settled = sent.catch(() => undefined);
    payerTurns.set(payer, settled);
    settled.then(() => payerTurns.get(payer) === settled && payerTurns.delete(payer));
    return sent;
  };

  return toFacilitatorEvmSigner(
    {
      address: account.address,
      readContract: (args) =>
        client.readContract({
          ...args,
          abi: args.abi as Abi,
          args: args.args ?? [],
          blockTag: "pending",
        } as never),
      verifyTypedData: (args) => client.verifyTypedData(args as never),
      writeContract: (args) => {
        const data = encodeCall(args.abi as Abi, args.functionName, args.args);
        return submit(args.address, args.dataSuffix ? concat([data, args.dataSuffix]) : data);
      },
      sendTransaction: (args) => submit(args.to, args.data),
      waitForTransactionReceipt: (args) => awaitReceipt(args.hash),
      getCode,
    },
    { confirmationTimeoutMs },
  );
}
