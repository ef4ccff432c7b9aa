import { randomUUID } from "node:crypto";
import pg from "pg";
import { config } from "../config";
import { log } from "../log";
import { processWide } from "../process-wide";

// Verified credentials (a secret's hash → what it proves), kept in memory so that an
// authenticated request does not spend a database round trip on its credential. A change to what
// an entry says (revocation, an organization's pinned API version) reaches every instance at once:
// announceCredentialChange (./announce-credential-change.ts) clears this process's entries, sends
// NOTIFY to every instance's listener and returns once each has cleared its own. Entries live
// `ttlMs` at most, the fallback for a change made outside that path (SQL by hand).
//
// A cache serves entries only while its listener is known to hear notifications: after it has
// heard a probe of its own sent over another connection. It never does on the embedded database,
// which does not pass notifications between connections, so there every request reads the row.

export const changedChannel = "credentials_changed";
export const heardChannel = "credentials_heard";
/** The listener's application_name once it hears: announcers count these to know whom to wait for. */
export const listenerName = "credential-cache";

const ttlMs = 10_000;
// A bound on memory: one entry per credential in use, so this many is far beyond any merchant.
const maxEntries = 10_000;

export type CredentialCache = {
  /** The value for `key`, from memory or from `load` (a null, unknown or revoked, is never kept). */
  read<T extends object>(key: string, load: () => Promise<T | null>): Promise<T | null>;
  /** Drops every entry, and any read in flight will not store what it loaded. */
  forget(): void;
  /** True once the listener hears notifications: entries are served from then on. */
  readonly serving: boolean;
  /** Stops listening; resolves once none of the cache's connections is open. */
  stop(): Promise<void>;
};

/** A cache listening on the database at `databaseUrl`. Exported so tests can make a second instance. */
export function createCredentialCache(
  databaseUrl: string | undefined,
  now = () => Date.now(),
): CredentialCache {
  const entries = new Map<string, { value: object; expiresAt: number }>();
  // Bumped by every forget: a read stores its row only if none happened while it loaded.
  let generation = 0;
  let serving = false;
  let stopped = false;
  let client: pg.Client | undefined;
  let connecting: Promise<void> | undefined;
  let retryMs = 1000;
  let timer: NodeJS.Timeout | undefined;

  const forget = () => {
    entries.clear();
    generation += 1;
  };

  const reconnect = (failed: pg.Client, error?: unknown) => {
    if (stopped || failed !== client) return;
    log.warn({ err: error }, "credential change notifications lost; reading credentials until reconnected");
    serving = false;
    forget();
    client = undefined;
    failed.end().catch(() => {});
    timer = setTimeout(() => {
      connecting = connect();
    }, retryMs);
    retryMs = Math.min(retryMs * 2, 30_000);
  };

  const connect = async () => {
    if (!databaseUrl) return;
    const current = new pg.Client({ connectionString: databaseUrl });
    client = current;
    const probe = `probe:${randomUUID()}`;
    // One query at a time on the listening connection: pg refuses to queue a second itself.
    let queries: Promise<unknown> = Promise.resolve();
    const send = (text: string, values?: unknown[]) => {
      const sent = queries.then(() => current.query(text, values));
      queries = sent.catch(() => {});
      return sent;
    };
    current.on("notification", (message) => {
      if (message.channel !== changedChannel) return;
      if (message.payload === probe) {
        // Heard over another connection: from now on every change reaches this instance. Named
        // first, so an announcer that counts it also waits for it.
        void send(`SET application_name = '${listenerName}'`)
          .then(() => {
            if (client !== current) return;
            forget();
            serving = true;
          })
          .catch(() => {});
        return;
      }
      if (message.payload?.startsWith("probe:")) return;
      forget();
      // The announcer waits for every listening instance to say it has forgotten.
      if (message.payload) {
        void send("SELECT pg_notify($1, $2)", [heardChannel, message.payload]).catch(() => {});
      }
    });
    current.on("error", (error) => reconnect(current, error));
    current.on("end", () => reconnect(current));
    try {
      await current.connect();
      await send(`LISTEN ${changedChannel}`);
      retryMs = 1000;
      if (stopped) return;
      const sender = new pg.Client({ connectionString: databaseUrl });
      // Closed by the server before its query (a restart, a dropped database): the query fails
      // and the listener retries; unheard, the error would take the process down.
      sender.on("error", (error) => log.warn({ err: error }, "credential cache probe connection closed"));
      await sender.connect();
      await sender.query("SELECT pg_notify($1, $2)", [changedChannel, probe]).finally(() => sender.end());
    } catch (error) {
      reconnect(current, error);
    }
  };

  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    connecting = connect();
  };

  return {
    get serving() {
      return serving;
    },
    async read<T extends object>(key: string, load: () => Promise<T | null>) {
      start();
      const entry = entries.get(key);
      if (serving && entry && entry.expiresAt > now()) return entry.value as T;
      const readAt = generation;
      const value = await load();
      if (value && serving && readAt === generation) {
        if (entries.size >= maxEntries) entries.clear();
        entries.set(key, { value, expiresAt: now() + ttlMs });
      }
      return value;
    },
    forget,
    async stop() {
      stopped = true;
      serving = false;
      forget();
      clearTimeout(timer);
      // Ended first, so that a connect under way fails at once; awaited, so that no connection
      // of this cache (the listener, a probe's sender) outlives the stop.
      const ended = client?.end().catch(() => {});
      await connecting;
      await ended;
    },
  };
}

const holder = () =>
  processWide("credential-cache", () => ({ cache: undefined as CredentialCache | undefined }));

/** The process's cache, listening on the configured database (from its first read on). */
export function credentialCache(): CredentialCache {
  const current = holder();
  current.cache ??= createCredentialCache(config().databaseUrl);
  return current.cache;
}

/** Clears this process's cache if it has one (without starting one where none is used). */
export function forgetCredentialsHere() {
  holder().cache?.forget();
}

/** Stops this process's cache and its listener (a later read starts a new one). */
export async function stopCredentialCacheHere() {
  const current = holder();
  const { cache } = current;
  current.cache = undefined;
  await cache?.stop();
}
