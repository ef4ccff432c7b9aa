import pg from "pg";
import { log } from "../log";

/**
 * A pg pool that survives the server closing one of its idle connections (restart, failover, a
 * database dropped under it): pg re-emits that as the pool's "error" event, which takes the
 * process down when nothing listens. The pool replaces the connection on next use.
 */
export function createPool(connectionString: string | undefined, max: number): pg.Pool {
  const pool = new pg.Pool({ connectionString, max });
  pool.on("error", (error) => log.warn({ err: error }, "idle database connection closed"));
  return pool;
}
