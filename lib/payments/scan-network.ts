import { type ChainClient, chainFamily } from "../chains/chain-families";
import type { ObservedTransfer, ReadTuning, TransferReader } from "../chains/chain-family";
import { findToken, type NetworkConfig } from "../chains/networks";
import type { Db } from "../db/client";
import { transactWithEvents } from "../events/transact-with-events";
import { newId } from "../ids";
import { fromBaseUnits } from "../money/decimal";
import { invoiceStatuses } from "./invoice-state";
import { updateInvoiceFromPayments } from "./update-invoice-from-payments";
import {
  currentWatchSet,
  lateWatchWindowMs,
  processWatchSets,
  type WatchSet,
  type WatchSets,
  watchedAddresses,
} from "./watch-set";

// The watcher's database phase: the chain reading (what arrived, which blocks still stand) is the
// network's family's TransferReader (lib/chains/chain-family.ts); this file decides what it means
// for invoices.

/** How far back a first scan looks. */
const firstScanDepth = 1000n;
/** Every status but CONFIRMED: a payment can still arrive (late ones included) or be reorganised away. */
const openStatuses = invoiceStatuses.filter((status) => status !== "CONFIRMED");

type WatchedInvoice = {
  id: string;
  organizationId: string;
  depositAddress: string;
  token: string;
  deadline: Date;
};

/** A transfer to a watched invoice, as the watcher records it. */
type Transfer = {
  invoice: WatchedInvoice;
  txHash: string;
  logIndex: number;
  amount: string;
  blockNumber: bigint;
  blockHash: string;
  /** The payer in its family's spelling; EVM's zero address (a mint) stands for an unknown payer. */
  fromAddress: string;
};

const watchedSelect = { id: true, organizationId: true, depositAddress: true, token: true, deadline: true };

/**
 * Open invoices in a token whose deadline is at most lateWatchWindowMs ago, and the renewals of
 * past-due subscriptions, which may still be paid until their grace period ends.
 */
function watchedWhere(network: NetworkConfig, token: string, now: Date) {
  return {
    network: network.id,
    token,
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
  token: string,
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

/** The observed transfers whose invoices the database still watches, one read per token. */
async function watchedTransfers(
  database: Db,
  network: NetworkConfig,
  watch: WatchSet,
  observed: ObservedTransfer[],
  now: Date,
): Promise<Transfer[]> {
  const matched = observed.flatMap((transfer) => {
    const entry = watchedAddresses(watch, transfer.token).get(transfer.receiver);
    return entry ? [{ transfer, invoiceId: entry.invoiceId }] : [];
  });
  const tokens = [...new Set(matched.map(({ transfer }) => transfer.token))];
  const invoices = new Map(
    (
      await Promise.all(
        tokens.map((token) =>
          stillWatched(
            database,
            network,
            token,
            matched.filter(({ transfer }) => transfer.token === token).map(({ invoiceId }) => invoiceId),
            now,
          ),
        ),
      )
    ).flatMap((found) => [...found]),
  );
  return matched.flatMap(({ transfer, invoiceId }) => {
    const invoice = invoices.get(invoiceId);
    return invoice ? paymentOf(network, invoice, transfer) : [];
  });
}

/** A transfer to an invoice as the watcher records it; none in a token no longer configured. */
function paymentOf(network: NetworkConfig, invoice: WatchedInvoice, transfer: ObservedTransfer): Transfer[] {
  const token = findToken(network, transfer.token);
  if (!token) return [];
  return [
    {
      invoice,
      txHash: transfer.transaction,
      logIndex: transfer.index,
      amount: fromBaseUnits(transfer.units, token.decimals),
      blockNumber: transfer.position,
      blockHash: transfer.block,
      fromAddress: transfer.payer,
    },
  ];
}

/**
 * Transfers that paid no watched invoice but carry an invoice's reference (a shared receiver's
 * key, Solana Pay): its invoice is CONFIRMED, or past its late window. They are recorded all the
 * same, as over or late payments, so money that reached the shared receiving wallet is never left
 * unaccounted for. An invoice with a deposit address of its own keeps such funds there, under its
 * address (README, "Chain watcher"). One read per chunk, on the (network, reference) index.
 */
async function unwatchedTransfers(
  database: Db,
  network: NetworkConfig,
  observed: ObservedTransfer[],
  counted: Transfer[],
): Promise<Transfer[]> {
  const done = new Set(counted.map((transfer) => `${transfer.txHash}:${transfer.logIndex}`));
  const left = observed.filter((transfer) => !done.has(`${transfer.transaction}:${transfer.index}`));
  if (left.length === 0) return [];
  const invoices = await database.invoice.findMany({
    where: {
      network: network.id,
      reference: { in: [...new Set(left.map((transfer) => transfer.receiver))] },
    },
    select: { ...watchedSelect, reference: true },
  });
  const byReference = new Map(invoices.map((invoice) => [invoice.reference, invoice]));
  return left.flatMap((transfer) => {
    const invoice = byReference.get(transfer.receiver);
    const key = `${transfer.transaction}:${transfer.index}`;
    // A transfer carrying two invoices' references pays the first (payments are unique per transfer).
    if (!invoice || invoice.token !== transfer.token || done.has(key)) return [];
    done.add(key);
    return paymentOf(network, invoice, transfer);
  });
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
  /** Reads transfers only this way, instead of the one the reader chooses per range. */
  logQuery?: ReadTuning["logQuery"];
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
  reader: TransferReader,
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
  const heights = [...new Set(counted.map((payment) => payment.blockNumber))].filter(
    (number) => number <= range.head,
  );
  const canonicalBlocks = await reader.blockIds(heights);
  for (const payment of counted) {
    if (canonicalBlocks.get(payment.blockNumber) === payment.blockHash) continue;
    await database.payment.update({ where: { id: payment.id }, data: { status: "REORGED" } });
    touched.add(payment.invoiceId);
    if (payment.blockNumber <= from) from = payment.blockNumber;
  }
  return from;
}

/**
 * Walks [from, head] in ranges of at most the reader's `maxRange`, each read in chunks: records a
 * chunk's transfers, moves the invoices they (and `touched`) concern on, then the cursor to what
 * the chunk read, so an interrupted catch-up resumes after the last chunk.
 */
async function scanRanges(
  database: Db,
  network: NetworkConfig,
  reader: TransferReader,
  scan: { from: bigint; head: bigint; now: Date; signal?: AbortSignal; watch: WatchSet },
  touched: Set<string>,
) {
  const { from, head, now, signal, watch } = scan;
  const { maxRange } = reader;
  const watched = { receivers: (token: string) => watchedAddresses(watch, token), learnt: watch.learnt };
  for (let start = from; start <= head; start += maxRange) {
    const range = { from: start, to: start + maxRange - 1n < head ? start + maxRange - 1n : head, signal };
    for await (const chunk of reader.transfers(range, watched)) {
      const transfers = await watchedTransfers(database, network, watch, chunk.transfers, now);
      transfers.push(...(await unwatchedTransfers(database, network, chunk.transfers, transfers)));
      signal?.throwIfAborted();
      for (const invoiceId of await recordTransfers(database, transfers, now)) touched.add(invoiceId);
      await settleInvoices(database, touched, now);
      touched.clear();
      await database.chainCursor.upsert({
        where: { network: network.id },
        create: { network: network.id, lastScannedBlock: chunk.readTo },
        update: { lastScannedBlock: chunk.readTo },
      });
    }
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
 * cursor to the head in ranges, recording the transfers the network's family reads into watched
 * invoices' deposit addresses (idempotent on transaction + index), moving their invoices on and the
 * cursor forward after each range; finally updates confirmations. Resumes from the cursor kept in
 * PostgreSQL, so an interrupted catch-up continues where it was. `client` is the network's
 * connection (its family's `client`, or one a caller counts calls on).
 */
export async function scanNetwork(
  database: Db,
  network: NetworkConfig,
  client: ChainClient,
  options: ScanOptions = {},
) {
  const { now = new Date(), signal } = options;
  const reader = chainFamily(network).transferReader(client, network, { logQuery: options.logQuery });
  const head = options.head ?? (await reader.head());
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
  const from = await unCountReorganised(database, network, reader, { from: cursorFrom, head }, touched);
  await scanRanges(database, network, reader, { from, head, now, signal, watch }, touched);
  await updateConfirmations(database, network, head, touched);
  await settleInvoices(database, touched, now);
  return { head };
}
