import { type Address, getAddress, type Hex, type PublicClient, parseAbiItem, zeroAddress } from "viem";
import type {
  ObservedTransfer,
  ReadRange,
  ReadTuning,
  TransferReader,
  WatchedReceivers,
} from "../chain-family";
import type { NetworkConfig, TokenConfig } from "../networks";
import { chooseLogQuery, type LogQuery, learnLogDensity } from "./choose-log-query";
import { evmAddresses } from "./evm-addresses";

const transfer = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)");
/** Blocks requested at once from the node. */
const blockFetchConcurrency = 8;

/** Deposit addresses per getLogs filter. */
export const addressBatchSize = 500;
/** Blocks per getLogs range when a network sets no maxBlockRange (common provider limit). */
export const defaultMaxBlockRange = 2_000;

/** Fetches per block, a few at a time, yielding each chunk so whole blocks are not all held at once. */
async function* fetchInChunks<T>(
  numbers: bigint[],
  fetch: (blockNumber: bigint) => Promise<T>,
  signal?: AbortSignal,
) {
  for (let start = 0; start < numbers.length; start += blockFetchConcurrency) {
    signal?.throwIfAborted();
    yield await Promise.all(numbers.slice(start, start + blockFetchConcurrency).map(fetch));
  }
}

type TransferLog = {
  args: { from?: Address; to?: Address; value?: bigint };
  transactionHash: Hex | null;
  logIndex: number | null;
  blockNumber: bigint | null;
  blockHash: Hex | null;
};

/** One token's transfers to read; `forced` overrides chooseLogQuery. */
type TokenRead = {
  client: PublicClient;
  token: TokenConfig;
  range: ReadRange;
  watched: WatchedReceivers;
  forced: LogQuery | undefined;
};

/**
 * A token's Transfer logs in the range that may concern watched addresses, read the cheaper way
 * (chooseLogQuery): one unfiltered getLogs matched against the set in memory, or one filtered
 * getLogs per addressBatchSize addresses. An unfiltered read the provider refuses (too many
 * results) falls back to the filtered reads.
 */
async function tokenLogs({ client, token, range, watched, forced }: TokenRead): Promise<TransferLog[]> {
  const addresses = watched.receivers(token.symbol);
  if (addresses.size === 0) return [];
  const blocks = range.to - range.from + 1n;
  const query =
    forced ??
    chooseLogQuery({
      watched: addresses.size,
      blocks,
      batchSize: addressBatchSize,
      logsPerBlock: watched.learnt.get(token.symbol),
    });
  const read = {
    address: token.address as Address,
    event: transfer,
    fromBlock: range.from,
    toBlock: range.to,
  };
  if (query === "all") {
    try {
      const logs = await client.getLogs(read);
      learnLogDensity(watched.learnt, token.symbol, logs.length, blocks);
      return logs;
    } catch (error) {
      if (forced) throw error;
      // Most likely more results than the provider answers at once: the filtered reads then.
      watched.learnt.set(token.symbol, Number.POSITIVE_INFINITY);
    }
  }
  const logs: TransferLog[] = [];
  const keys = [...addresses.keys()] as Address[];
  for (let start = 0; start < keys.length; start += addressBatchSize)
    logs.push(
      ...(await client.getLogs({ ...read, args: { to: keys.slice(start, start + addressBatchSize) } })),
    );
  return logs;
}

/** ERC-20 transfers to watched addresses in the range. */
async function tokenTransfers(read: TokenRead): Promise<ObservedTransfer[]> {
  const { token, watched } = read;
  const addresses = watched.receivers(token.symbol);
  return (await tokenLogs(read)).flatMap((log) => {
    const receiver = log.args.to && evmAddresses.key(log.args.to);
    // A transfer of 0 moved nothing: no payment (and no row a flood of them could write).
    return receiver &&
      addresses.has(receiver) &&
      (log.args.value ?? 0n) > 0n &&
      log.transactionHash !== null &&
      log.logIndex !== null &&
      log.blockNumber !== null
      ? [
          {
            token: token.symbol,
            receiver,
            transaction: log.transactionHash,
            index: log.logIndex,
            units: log.args.value ?? 0n,
            position: log.blockNumber,
            block: log.blockHash as Hex,
            payer: getAddress(log.args.from ?? zeroAddress),
          },
        ]
      : [];
  });
}

/**
 * Plain native-coin transfers to watched addresses in the range: one getBlock with its
 * transactions per block (a value transfer emits no log to filter on), then the blocks'
 * recipients matched against the watched set in memory (the cost follows the blocks, not the
 * number of invoices), and a receipt only for a match, because a reverted transaction moved nothing.
 */
async function nativeTransfers(
  client: PublicClient,
  token: TokenConfig,
  range: ReadRange,
  watched: WatchedReceivers,
): Promise<ObservedTransfer[]> {
  const addresses = watched.receivers(token.symbol);
  // Whole blocks are fetched only while some invoice in the native coin is watched.
  if (addresses.size === 0) return [];
  const found: ObservedTransfer[] = [];
  const numbers: bigint[] = [];
  for (let number = range.from; number <= range.to; number++) numbers.push(number);
  const chunks = fetchInChunks(
    numbers,
    (blockNumber) => client.getBlock({ blockNumber, includeTransactions: true }),
    range.signal,
  );
  for await (const blocks of chunks)
    for (const block of blocks)
      for (const transaction of block.transactions) {
        const receiver = transaction.to && evmAddresses.key(transaction.to);
        if (!receiver || transaction.value <= 0n || !addresses.has(receiver)) continue;
        const receipt = await client.getTransactionReceipt({ hash: transaction.hash });
        if (receipt.status !== "success") continue;
        found.push({
          token: token.symbol,
          receiver,
          transaction: transaction.hash,
          // A transaction carries at most one top-level value transfer and no log for it, and log
          // indexes start at 0: -1 keeps (transaction, index) unique next to ERC-20 payments.
          index: -1,
          units: transaction.value,
          position: block.number as bigint,
          block: block.hash as Hex,
          payer: getAddress(transaction.from),
        });
      }
  return found;
}

/** The EVM watcher's chain reading: ERC-20 Transfer logs and native value transfers, block hashes. */
export function evmTransferReader(
  client: PublicClient,
  network: NetworkConfig,
  tuning: ReadTuning = {},
): TransferReader {
  const native = network.tokens.find((token) => !token.address);
  return {
    head: () => client.getBlockNumber(),
    // Bounded ranges: after downtime the gap can exceed what a provider answers in one getLogs.
    maxRange: BigInt(network.maxBlockRange ?? defaultMaxBlockRange),
    // One chunk: a range's logs come in a few calls, whatever the number of transfers.
    async *transfers(range, watched) {
      // Tokens and the native coin side by side: on each new head this is the latency path.
      const transfers = (
        await Promise.all([
          ...network.tokens
            .filter((candidate) => candidate.address)
            .map((token) => tokenTransfers({ client, token, range, watched, forced: tuning.logQuery })),
          native ? nativeTransfers(client, native, range, watched) : [],
        ])
      ).flat();
      yield { transfers, readTo: range.to };
    },
    async blockIds(positions) {
      // One hash lookup per block, however many payments it holds.
      const hashes: (string | null)[] = [];
      for await (const chunk of fetchInChunks(positions, (blockNumber) =>
        client
          .getBlock({ blockNumber })
          .then((block) => block.hash)
          .catch(() => null),
      ))
        hashes.push(...chunk);
      return new Map(positions.map((position, index) => [position, hashes[index]]));
    },
  };
}
