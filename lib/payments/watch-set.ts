import { chainFamily } from "../chains/chain-families";
import type { NetworkConfig } from "../chains/networks";
import type { Db } from "../db/client";

/**
 * How long after its deadline an invoice's deposit address is still watched. A late payment
 * inside this window is recorded and reported; after it the address is dropped, so abandoned
 * invoices cannot pile up in every scan (BTCPay Server's default monitoring window is the same).
 */
export const lateWatchWindowMs = 24 * 60 * 60 * 1000;
/** Entries past the late window leave memory at most this long after it closed. */
const pruneEveryMs = 60_000;
/** A full read replaces the set this often, dropping what only a full read can tell (cancelled renewals). */
const rebuildEveryMs = 60 * 60_000;

/**
 * A watched receiver (an invoice's deposit address, or its reference where the address is shared):
 * enough to match a transfer and to drop it when its window closes.
 */
type Entry = { invoiceId: string; deadlineMs: number; recurring: boolean };

/**
 * One network's watched deposit addresses, per token symbol, keyed as the network's family
 * compares addresses (AddressRules.key in lib/chains/chain-family.ts). A
 * superset of what the scan may record: a match is re-checked against the database before it
 * counts (scan-network.ts), so an entry kept a little too long costs memory, never a wrong payment.
 */
export type WatchSet = {
  byToken: Map<string, Map<string, Entry>>;
  /**
   * What the last read could not see (its snapshot): transactions from xmax on, and those still
   * running then. The next read takes the invoices those wrote, so a transaction that commits after
   * a read, whenever it began, is never skipped, and nothing seen is read twice.
   */
  cursor: Snapshot;
  loadedAt: number;
  prunedAt: number;
  /** The latest `now` applied: entries were dropped against it (the late window). */
  latestNow: number;
  /** A whole read under way in the background (rebuildEveryMs), and its result once done. */
  rebuild?: { done?: WatchSet };
  /** What the network's chain reader learnt per token, kept across scans (WatchedReceivers.learnt). */
  learnt: Map<string, number>;
};

/** Watch sets per network, one registry per watcher instance (a process has one per database). */
export type WatchSets = Map<string, WatchSet>;
const registries = new WeakMap<Db, WatchSets>();
export function processWatchSets(database: Db): WatchSets {
  let sets = registries.get(database);
  if (!sets) {
    sets = new Map();
    registries.set(database, sets);
  }
  return sets;
}

type InvoiceRow = {
  id: string;
  token: string;
  /** What the invoice's transfers are matched by: its reference where it has one, else its address. */
  receiver: string;
  deadline: Date;
  recurring: boolean;
  open: boolean;
};

type Snapshot = { xmax: string; running: string[] };

/** Taken before a read, so the read sees at least what it does. */
async function snapshot(database: Db): Promise<Snapshot> {
  const [row] = await database.$queryRaw<Snapshot[]>`
    SELECT pg_snapshot_xmax(s)::text AS "xmax", ARRAY(SELECT pg_snapshot_xip(s)::text) AS "running"
    FROM pg_current_snapshot() AS s`;
  return row;
}

function put(set: WatchSet, row: InvoiceRow, cutoffMs: number, key: (address: string) => string) {
  let addresses = set.byToken.get(row.token);
  if (!addresses) {
    addresses = new Map();
    set.byToken.set(row.token, addresses);
  }
  const receiver = key(row.receiver);
  const deadlineMs = row.deadline.getTime();
  if (row.open && (deadlineMs >= cutoffMs || row.recurring))
    addresses.set(receiver, { invoiceId: row.id, deadlineMs, recurring: row.recurring });
  else addresses.delete(receiver);
}

/**
 * Every invoice of the network that may still be paid: open, and inside the late window or a
 * renewal of a subscription not cancelled (a past-due one may still be paid until its grace ends).
 */
async function load(database: Db, network: NetworkConfig, now: Date): Promise<WatchSet> {
  const cursor = await snapshot(database);
  const cutoff = new Date(now.getTime() - lateWatchWindowMs);
  const rows = await database.$queryRaw<InvoiceRow[]>`
    SELECT i."id", i."token", COALESCE(i."reference", i."depositAddress") AS "receiver", i."deadline",
      i."subscriptionId" IS NOT NULL AS "recurring", true AS "open"
    FROM "Invoice" i LEFT JOIN "Subscription" s ON s."id" = i."subscriptionId"
    WHERE i."network" = ${network.id} AND i."status" <> 'CONFIRMED'
      AND (i."deadline" >= ${cutoff} OR s."status" IN ('ACTIVE', 'PAST_DUE'))`;
  const set: WatchSet = {
    byToken: new Map(),
    cursor,
    loadedAt: now.getTime(),
    prunedAt: now.getTime(),
    latestNow: now.getTime(),
    learnt: new Map(),
  };
  const { key } = chainFamily(network).addresses;
  for (const row of rows) put(set, row, cutoff.getTime(), key);
  return set;
}

/** Applies the invoices inserted or updated since the cursor: new ones join, paid ones leave. */
async function catchUp(database: Db, network: NetworkConfig, set: WatchSet, now: Date) {
  const cursor = await snapshot(database);
  const { xmax, running } = set.cursor;
  const rows = await database.$queryRaw<InvoiceRow[]>`
    SELECT "id", "token", COALESCE("reference", "depositAddress") AS "receiver", "deadline",
      "subscriptionId" IS NOT NULL AS "recurring",
      "status" <> 'CONFIRMED' AS "open"
    FROM "Invoice"
    WHERE "network" = ${network.id}
      AND ("changeXid" >= ${xmax}::bigint OR "changeXid" = ANY(${running}::bigint[]))`;
  const cutoffMs = now.getTime() - lateWatchWindowMs;
  const { key } = chainFamily(network).addresses;
  for (const row of rows) put(set, row, cutoffMs, key);
  set.cursor = cursor;
  set.latestNow = Math.max(set.latestNow, now.getTime());
  if (now.getTime() - set.prunedAt >= pruneEveryMs) {
    for (const addresses of set.byToken.values())
      for (const [key, entry] of addresses)
        if (!entry.recurring && entry.deadlineMs < cutoffMs) addresses.delete(key);
    set.prunedAt = now.getTime();
  }
}

/**
 * The network's watch set as of now, for one scan: read whole on first use (a start, a restart)
 * and, in the background, every rebuildEveryMs; otherwise caught up from its cursor, so a scan's
 * database cost follows the invoices that changed, not those open. Call it after reading the head:
 * an invoice committed later cannot have been paid in a block up to that head.
 */
export async function currentWatchSet(
  database: Db,
  network: NetworkConfig,
  sets: WatchSets,
  now: Date,
): Promise<WatchSet> {
  const known = sets.get(network.id);
  // A clock set back (or a caller's earlier `now`) may watch again what was dropped: read whole.
  if (!known || now.getTime() < known.latestNow) {
    const loaded = await load(database, network, now);
    sets.set(network.id, loaded);
    return loaded;
  }
  const rebuilt = known.rebuild?.done;
  if (rebuilt) {
    // What was learnt about the chain outlives a rebuild, except a refusal: tried again now and then.
    for (const [token, learnt] of known.learnt)
      if (Number.isFinite(learnt)) rebuilt.learnt.set(token, learnt);
    sets.set(network.id, rebuilt);
    // Its cursor predates its read: what changed meanwhile is applied now.
    await catchUp(database, network, rebuilt, now);
    return rebuilt;
  }
  if (!known.rebuild && Math.abs(now.getTime() - known.loadedAt) >= rebuildEveryMs) {
    // In the background, so no scan waits for a whole read; a failed one is tried again next scan.
    const rebuild: WatchSet["rebuild"] = {};
    known.rebuild = rebuild;
    load(database, network, now).then(
      (loaded) => {
        rebuild.done = loaded;
      },
      () => {
        known.rebuild = undefined;
      },
    );
  }
  await catchUp(database, network, known, now);
  return known;
}

/** The watched addresses in a token (by their family's key) and their invoices. */
export function watchedAddresses(set: WatchSet, token: string): ReadonlyMap<string, Entry> {
  return set.byToken.get(token) ?? new Map();
}
