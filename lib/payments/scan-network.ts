import { type Address, getAddress, type Hex, type PublicClient, parseAbiItem, zeroAddress } from "viem";
import type { NetworkConfig, TokenConfig } from "../chains/networks";
import type { Db } from "../db/client";
import { transactWithEvents } from "../events/transact-with-events";
import { newId } from "../ids";
import { fromBaseUnits } from "../money/decimal";
import { invoiceStatuses } from "./invoice-state";
import { updateInvoiceFromPayments } from "./update-invoice-from-payments";
import {
  chooseLogQuery,
  currentWatchSet,
  type LogQuery,
  lateWatchWindowMs,
  learnLogDensity,
  processWatchSets,
  type WatchSet,
  type WatchSets,
  watchedAddresses,
} from "./watch-set";

const transfer = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)");
/** How far back a first scan looks. */
const firstScanDepth = 1000n;
/** Every status but CONFIRMED: a payment can still arrive (late ones included) or be reorganised away. */
const openStatuses = invoiceStatuses.filter((status) => status !== "CONFIRMED");
/** Blocks requested at once from the node. */
const blockFetchConcurrency = 8;

/** Deposit addresses per getLogs filter. */
export const addressBatchSize = 500;
/** Blocks per getLogs range when a network sets no maxBlockRange (common provider limit). */
export const defaultMaxBlockRange = 2_000;

type WatchedInvoice = {
  id: string;
  organizationId: string;
  depositAddress: string;
  token: string;
  deadline: Date;
};

/** A transfer to a watched invoice's address, ERC-20 or native, as the watcher records it. */
type Transfer = {
  invoice: WatchedInvoice;
  txHash: Hex;
  logIndex: number;
  amount: string;
  blockNumber: bigint;
  blockHash: Hex;
  /** Checksummed sender; the zero address (a mint) stands for an unknown payer. */
  fromAddress: Address;
};

const watchedSelect = { id: true, organizationId: true, depositAddress: true, token: true, deadline: true };

/**
 * Open invoices in a token whose deadline is at most lateWatchWindowMs ago, and the renewals of
 * past-due subscriptions, which may still be paid until their grace period ends.
 */
function watchedWhere(network: NetworkConfig, token: TokenConfig, now: Date) {
  return {
    network: network.id,
    token: token.symbol,
    status: { in: [...openStatuses] },
    OR: [
      { deadline: { gte: new Date(now.getTime() - lateWatchWindowMs) } },
      { subscription: { status: "PAST_DUE" as const } },
    ],
  };
}

/**
 * The invoices behind matched addresses that are watched right now, read from the database: the
 * in-memory set may hold an invoice paid or changed a moment ago, and only the row decides.
 */
async function stillWatched(
  database: Db,
  network: NetworkConfig,
  token: TokenConfig,
  invoiceIds: string[],
  now: Date,
): Promise<Map<string, WatchedInvoice>> {
  if (invoiceIds.length === 0) return new Map();
  const invoices: WatchedInvoice[] = await database.invoice.findMany({
    where: { ...watchedWhere(network, token, now), id: { in: [...new Set(invoiceIds)] } },
    select: watchedSelect,
  });
  return new Map(invoices.map((invoice) => [invoice.id, invoice]));
}

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

type Range = { from: bigint; to: bigint; now: Date; signal?: AbortSignal };
type TransferLog = {
  args: { from?: Address; to?: Address; value?: bigint };
  transactionHash: Hex | null;
  logIndex: number | null;
  blockNumber: bigint | null;
  blockHash: Hex | null;
};

/**
 * A token's Transfer logs in the range that may concern watched addresses, read the cheaper way
 * (chooseLogQuery): one unfiltered getLogs matched against the set in memory, or one filtered
 * getLogs per addressBatchSize addresses. An unfiltered read the provider refuses (too many
 * results) falls back to the filtered reads.
 */
async function tokenLogs(
  client: PublicClient,
  token: TokenConfig,
  range: Range,
  watch: WatchSet,
  forced: LogQuery | undefined,
): Promise<TransferLog[]> {
  const addresses = watchedAddresses(watch, token.symbol);
  if (addresses.size === 0) return [];
  const blocks = range.to - range.from + 1n;
  const query =
    forced ??
    chooseLogQuery({
      watched: addresses.size,
      blocks,
      batchSize: addressBatchSize,
      logsPerBlock: watch.logsPerBlock.get(token.symbol),
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
      learnLogDensity(watch, token.symbol, logs.length, blocks);
      return logs;
    } catch (error) {
      if (forced) throw error;
      // Most likely more results than the provider answers at once: the filtered reads then.
      watch.logsPerBlock.set(token.symbol, Number.POSITIVE_INFINITY);
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

/** ERC-20 transfers to watched addresses in [from, to]. */
async function tokenTransfers(
  database: Db,
  client: PublicClient,
  network: NetworkConfig,
  token: TokenConfig,
  range: Range,
  scan: { watch: WatchSet; logQuery?: LogQuery },
): Promise<Transfer[]> {
  const addresses = watchedAddresses(scan.watch, token.symbol);
  const matched = (await tokenLogs(client, token, range, scan.watch, scan.logQuery)).flatMap((log) => {
    const entry = log.args.to && addresses.get(log.args.to.toLowerCase());
    return entry && log.transactionHash !== null && log.logIndex !== null && log.blockNumber !== null
      ? [{ log, invoiceId: entry.invoiceId }]
      : [];
  });
  const invoices = await stillWatched(
    database,
    network,
    token,
    matched.map((match) => match.invoiceId),
    range.now,
  );
  return matched.flatMap(({ log, invoiceId }) => {
    const invoice = invoices.get(invoiceId);
    if (!invoice) return [];
    return [
      {
        invoice,
        txHash: log.transactionHash as Hex,
        logIndex: log.logIndex as number,
        amount: fromBaseUnits(log.args.value ?? 0n, token.decimals),
        blockNumber: log.blockNumber as bigint,
        blockHash: log.blockHash as Hex,
        fromAddress: getAddress(log.args.from ?? zeroAddress),
      },
    ];
  });
}

/**
 * Plain native-coin transfers to watched addresses in [from, to]: one getBlock with its
 * transactions per block (a value transfer emits no log to filter on), then the blocks'
 * recipients matched against the watch set in memory (the cost follows the blocks, not the
 * number of invoices), and a receipt only for a match, because a reverted transaction moved nothing.
 */
async function nativeTransfers(
  database: Db,
  client: PublicClient,
  network: NetworkConfig,
  token: TokenConfig,
  range: Range,
  watch: WatchSet,
): Promise<Transfer[]> {
  const addresses = watchedAddresses(watch, token.symbol);
  const found: Transfer[] = [];
  const numbers: bigint[] = [];
  for (let number = range.from; number <= range.to; number++) numbers.push(number);
  const chunks = fetchInChunks(
    numbers,
    (blockNumber) => client.getBlock({ blockNumber, includeTransactions: true }),
    range.signal,
  );
  for await (const blocks of chunks) {
    const candidates = blocks.flatMap((block) =>
      block.transactions.flatMap((transaction) => {
        const entry = transaction.to && transaction.value > 0n && addresses.get(transaction.to.toLowerCase());
        return entry ? [{ block, transaction, invoiceId: entry.invoiceId }] : [];
      }),
    );
    const invoices = await stillWatched(
      database,
      network,
      token,
      candidates.map((candidate) => candidate.invoiceId),
      range.now,
    );
    for (const { block, transaction, invoiceId } of candidates) {
      const invoice = invoices.get(invoiceId);
      if (!invoice) continue;
      const receipt = await client.getTransactionReceipt({ hash: transaction.hash });
      if (receipt.status !== "success") continue;
      found.push({
        invoice,
        txHash: transaction.hash,
        // A transaction carries at most one top-level value transfer and no log for it, and log
        // indexes start at 0: -1 keeps (txHash, logIndex) unique next to ERC-20 payments.
        logIndex: -1,
        amount: fromBaseUnits(transaction.value, token.decimals),
        blockNumber: block.number as bigint,
        blockHash: block.hash as Hex,
        fromAddress: getAddress(transaction.from),
      });
    }
  }
  return found;
}

/** Records transfers as payments (idempotent) and returns the invoices they touched. */
async function recordTransfers(database: Db, transfers: Transfer[], now: Date) {
  const touched = new Set<string>();
  for (const found of transfers) {
    const { invoice } = found;
    await database.payment.createMany({
      data: [
        {
          id: newId("payment"),
          organizationId: invoice.organizationId,
          invoiceId: invoice.id,
          txHash: found.txHash,
          logIndex: found.logIndex,
          amount: found.amount,
          blockNumber: found.blockNumber,
          blockHash: found.blockHash,
          fromAddress: found.fromAddress,
          late: now.getTime() > invoice.deadline.getTime(),
        },
      ],
      skipDuplicates: true,
    });
    // A transfer un-counted by a reorganisation and mined again counts again, in its new block.
    await database.payment.updateMany({
      where: { txHash: found.txHash, logIndex: found.logIndex, status: "REORGED" },
      data: {
        status: "CONFIRMING",
        blockNumber: found.blockNumber,
        blockHash: found.blockHash,
        confirmations: 0,
      },
    });
    touched.add(invoice.id);
  }
  return touched;
}

async function settleInvoices(database: Db, invoiceIds: Iterable<string>, now: Date) {
  for (const invoiceId of invoiceIds)
    await transactWithEvents(database, (tx) => updateInvoiceFromPayments(tx, invoiceId, now));
}

export type ScanOptions = {
  now?: Date;
  /** The head just read by the caller (saves a call); read here when absent. */
  head?: bigint;
  /** Checked before each block range's writes: the task's lease was lost, or the runner stops. */
  signal?: AbortSignal;
  /** The watcher instance's watch sets; by default this process's for the database. */
  watchSets?: WatchSets;
  /** Reads token transfers only this way, instead of the cheaper one per range. */
  logQuery?: LogQuery;
};

/** Where this pass starts: after the cursor kept in PostgreSQL, or firstScanDepth back from the head. */
async function firstUnscannedBlock(database: Db, network: NetworkConfig, head: bigint) {
  const cursor = await database.chainCursor.findUnique({ where: { network: network.id } });
  return cursor ? cursor.lastScannedBlock + 1n : head > firstScanDepth ? head - firstScanDepth : 0n;
}

/**
 * Reorganisations: a counted payment whose block is gone, or replaced, no longer counts. Adds
 * their invoices to `touched`; returns `from`, rewound to the lowest such block.
 */
async function unCountReorganised(
  database: Db,
  network: NetworkConfig,
  client: PublicClient,
  range: { from: bigint; head: bigint },
  touched: Set<string>,
) {
  let { from } = range;
  const counted = await database.payment.findMany({
    where: {
      status: { in: ["CONFIRMING", "CONFIRMED"] },
      invoice: { network: network.id, status: { not: "CONFIRMED" } },
    },
  });
  // One hash lookup per block, however many payments it holds.
  const heights = [...new Set(counted.map((payment) => payment.blockNumber))].filter(
    (number) => number <= range.head,
  );
  const hashes: (Hex | null)[] = [];
  for await (const chunk of fetchInChunks(heights, (blockNumber) =>
    client
      .getBlock({ blockNumber })
      .then((block) => block.hash)
      .catch(() => null),
  ))
    hashes.push(...chunk);
  const canonicalHashes = new Map(heights.map((number, index) => [number, hashes[index]]));
  for (const payment of counted) {
    if (canonicalHashes.get(payment.blockNumber) === payment.blockHash) continue;
    await database.payment.update({ where: { id: payment.id }, data: { status: "REORGED" } });
    touched.add(payment.invoiceId);
    if (payment.blockNumber <= from) from = payment.blockNumber;
  }
  return from;
}

/**
 * Walks [from, head] in ranges of at most `maxBlockRange` blocks: records each range's transfers,
 * moves the invoices they (and `touched`) concern on, then the cursor forward, so an interrupted
 * catch-up resumes after the last whole range.
 */
async function scanRanges(
  database: Db,
  network: NetworkConfig,
  client: PublicClient,
  scan: { from: bigint; head: bigint; now: Date; signal?: AbortSignal; watch: WatchSet; logQuery?: LogQuery },
  touched: Set<string>,
) {
  const { from, head, now, signal, watch } = scan;
  // Bounded ranges: after downtime the gap can exceed what a provider answers in one getLogs.
  const maxRange = BigInt(network.maxBlockRange ?? defaultMaxBlockRange);
  const native = network.tokens.find((token) => !token.address);
  // Whole blocks are fetched only while some invoice in the native coin is watched.
  const nativeWatched = native && watchedAddresses(watch, native.symbol).size > 0;
  for (let start = from; start <= head; start += maxRange) {
    const range = {
      from: start,
      to: start + maxRange - 1n < head ? start + maxRange - 1n : head,
      now,
      signal,
    };
    // Tokens and the native coin side by side: on each new head this is the latency path.
    const transfers = (
      await Promise.all([
        ...network.tokens
          .filter((candidate) => candidate.address)
          .map((token) => tokenTransfers(database, client, network, token, range, scan)),
        native && nativeWatched ? nativeTransfers(database, client, network, native, range, watch) : [],
      ])
    ).flat();
    signal?.throwIfAborted();
    for (const invoiceId of await recordTransfers(database, transfers, now)) touched.add(invoiceId);
    await settleInvoices(database, touched, now);
    touched.clear();
    await database.chainCursor.upsert({
      where: { network: network.id },
      create: { network: network.id, lastScannedBlock: range.to },
      update: { lastScannedBlock: range.to },
    });
  }
}

/** Confirmations of everything still counted on this network; adds the invoices that changed to `touched`. */
async function updateConfirmations(database: Db, network: NetworkConfig, head: bigint, touched: Set<string>) {
  const pending = await database.payment.findMany({
    where: { status: "CONFIRMING", invoice: { network: network.id } },
  });
  for (const payment of pending) {
    const confirmations = Number(head - payment.blockNumber + 1n);
    const status = confirmations >= network.confirmations ? "CONFIRMED" : "CONFIRMING";
    if (confirmations !== payment.confirmations || status !== payment.status) {
      await database.payment.update({ where: { id: payment.id }, data: { confirmations, status } });
      touched.add(payment.invoiceId);
    }
  }
}

/**
 * One pass of the chain watcher over a network: re-checks that counted payments' blocks are still
 * canonical (a vanished block un-counts its payment and rewinds the cursor), then walks from the
 * cursor to the head in ranges of at most `maxBlockRange` blocks, recording ERC-20 and native
 * transfers to watched invoices' deposit addresses (idempotent on tx hash + log index), moving
 * their invoices on and the cursor forward after each range; finally updates confirmations.
 * Resumes from the cursor kept in PostgreSQL, so an interrupted catch-up continues where it was.
 */
export async function scanNetwork(
  database: Db,
  network: NetworkConfig,
  client: PublicClient,
  options: ScanOptions = {},
) {
  const { now = new Date(), signal } = options;
  const head = options.head ?? (await client.getBlockNumber());
  // After the head: an invoice created after this read cannot have been paid by that head.
  const watch = await currentWatchSet(
    database,
    network,
    options.watchSets ?? processWatchSets(database),
    now,
  );
  // Invoices whose payments changed and are not yet moved on.
  const touched = new Set<string>();
  const cursorFrom = await firstUnscannedBlock(database, network, head);
  const from = await unCountReorganised(database, network, client, { from: cursorFrom, head }, touched);
  await scanRanges(
    database,
    network,
    client,
    { from, head, now, signal, watch, logQuery: options.logQuery },
    touched,
  );
  await updateConfirmations(database, network, head, touched);
  await settleInvoices(database, touched, now);
  return { head };
}
