import type { Prisma } from "../generated/prisma/client";
import type { Tx } from "./client";

const identifier = /^[A-Za-z][A-Za-z0-9]*$/;

/**
 * Inserts many rows of one table in one statement, inside the caller's transaction, and returns
 * them as stored. Prisma's createMany builds a query plan the size of the batch, about a
 * millisecond of CPU a row (bench/subscriptions.ts); here PostgreSQL expands one JSON parameter.
 * Every row has the same keys, the table's column names; columns left out get their defaults.
 */
export async function insertRows<Row>(
  tx: Tx,
  table: Prisma.ModelName,
  rows: Record<string, unknown>[],
): Promise<Row[]> {
  if (rows.length === 0) return [];
  const columns = Object.keys(rows[0]);
  if (!columns.every((column) => identifier.test(column)))
    throw new Error(`insertRows: not a column name in ${columns.join(", ")}`);
  const list = columns.map((column) => `"${column}"`).join(", ");
  return tx.$queryRawUnsafe<Row[]>(
    `INSERT INTO "${table}" (${list}) SELECT ${list} FROM json_populate_recordset(NULL::"${table}", $1::json) RETURNING *`,
    JSON.stringify(rows),
  );
}
