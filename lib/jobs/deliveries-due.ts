import pg from "pg";
import type { Tx } from "../db/client";
import { log } from "../log";
import { processWide } from "../process-wide";

// Deliveries are due the moment the transaction that created them commits. Every instance's
// delivery worker hears it at once: from its own process through a local signal, from any other
// process through PostgreSQL's NOTIFY, which the server sends only when the transaction commits.
// Polling stays the fallback: for a notification missed while reconnecting, and on the embedded
// database, which does not pass notifications between connections.

const channel = "webhook_deliveries_due";

const notified = new WeakSet<Tx>();

/** Inside the transaction that creates deliveries: listeners hear it only if it commits. */
export async function notifyDeliveriesDue(tx: Tx) {
  // Once per transaction is enough (PostgreSQL would fold repeats into one anyway).
  if (notified.has(tx)) return;
  notified.add(tx);
  await tx.$executeRawUnsafe(`NOTIFY ${channel}`);
}

const localListeners = () => processWide("deliveries-due-listeners", () => new Set<() => void>());

/** Tells this process's delivery worker that deliveries are due (after they committed). */
export function signalDeliveriesDue() {
  for (const listener of localListeners()) listener();
}

/**
 * Calls `wake` whenever deliveries become due: signalled in this process, or notified by any
 * process on the database at `databaseUrl` (over a connection of its own, re-opened when lost).
 * Returns a function that stops listening.
 */
export function onDeliveriesDue(wake: () => void, databaseUrl?: string): () => void {
  localListeners().add(wake);
  const stopListening = databaseUrl ? listenForNotifications(databaseUrl, wake) : () => {};
  return () => {
    localListeners().delete(wake);
    stopListening();
  };
}

function listenForNotifications(databaseUrl: string, wake: () => void): () => void {
  let stopped = false;
  let client: pg.Client | undefined;
  let retryMs = 1000;
  let timer: NodeJS.Timeout | undefined;

  const reconnect = (failed: pg.Client, error?: unknown) => {
    if (stopped || failed !== client) return;
    log.warn({ err: error }, "delivery notifications lost; polling until reconnected");
    client = undefined;
    failed.end().catch(() => {});
    timer = setTimeout(connect, retryMs);
    retryMs = Math.min(retryMs * 2, 30_000);
  };

  const connect = async () => {
    const current = new pg.Client({ connectionString: databaseUrl });
    client = current;
    current.on("notification", () => wake());
    current.on("error", (error) => reconnect(current, error));
    current.on("end", () => reconnect(current));
    try {
      await current.connect();
      await current.query(`LISTEN ${channel}`);
      retryMs = 1000;
      // Whatever committed while nobody listened.
      wake();
    } catch (error) {
      reconnect(current, error);
    }
  };

  void connect();
  return () => {
    stopped = true;
    clearTimeout(timer);
    client?.end().catch(() => {});
  };
}
