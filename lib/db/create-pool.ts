import pg from "pg";
import { log } from "../log";

/**
 * A pg pool that survives the server closing one of its idle connections (restart, failover, a
 * database dropped under it): pg re-emits that as the pool's "error" event, which takes the
 * process down when nothing listens. The pool replaces the connection on next use.
 *
 * Waiting for a connection is bounded, so a request fails (503, lib/db/database-unavailable.ts)
 * rather than hangs when the server does not answer: 5 s to connect or to get one from a busy
 * pool, or on one connection (the embedded database) as long as a transaction may wait for it
 * (lib/db/client.ts). TCP keepalive finds a connection whose server vanished without closing it.
 */
export function createPool(connectionString: string | undefined, max: number): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max,
    connectionTimeoutMillis: max === 1 ? 15_000 : 5_000,
    keepAlive: true,
  });
  pool.on("error", (error) => log.warn({ err: error }, "idle database connection closed"));
  return pool;
}
