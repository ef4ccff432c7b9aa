import type pg from "pg";

// A named statement is parsed and planned once per connection, not on every run: for the hottest
// writes that is most of what PostgreSQL spends on them besides the commit. The embedded database
// (lib/db/embedded-postgres.ts) runs every connection in one session, where a second connection
// preparing the same name fails, so there statements stay unnamed. Per pool, found out on first use.
const namesStatements = new WeakMap<pg.Pool, Promise<boolean>>();

function preparesPerConnection(pool: pg.Pool): Promise<boolean> {
  let known = namesStatements.get(pool);
  if (!known) {
    known = pool
      .query<{ version: string }>("SELECT version()")
      .then(({ rows }) => !rows[0].version.includes("PGlite"));
    // A failed look-up is asked again on the next query rather than remembered.
    known.catch(() => namesStatements.delete(pool));
    namesStatements.set(pool, known);
  }
  return known;
}

/** `text` with `values` on `pool`, as the prepared statement `name` where the server allows it. */
export async function preparedQuery<R extends pg.QueryResultRow>(
  pool: pg.Pool,
  name: string,
  text: string,
  values: unknown[],
): Promise<pg.QueryResult<R>> {
  return pool.query<R>((await preparesPerConnection(pool)) ? { name, text, values } : { text, values });
}
