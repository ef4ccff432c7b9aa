import { afterAll, describe, expect, it } from "vitest";
import { closeDb, createDb, sqlPool } from "@/lib/db/client";
import { preparedQuery } from "./prepared-query";

// Two clients, as two processes (or a pool's replaced connection) would be: on the embedded
// database their connections share one session, where preparing one name twice would fail.
const clients = [
  createDb(process.env.DATABASE_URL as string, 2),
  createDb(process.env.DATABASE_URL as string, 2),
];
afterAll(() => Promise.all(clients.map(closeDb)));

describe("preparedQuery", () => {
  it("runs the same named statement on every connection of several pools, with each run's values", async () => {
    const runs = clients.flatMap((client, pool) =>
      [1, 2, 3, 4].map(async (run) => {
        const { rows } = await preparedQuery<{ echo: string }>(
          sqlPool(client),
          "prepared-query-test",
          "SELECT $1::text AS echo",
          [`${pool}-${run}`],
        );
        return rows[0].echo;
      }),
    );
    expect(await Promise.all(runs)).toEqual(["0-1", "0-2", "0-3", "0-4", "1-1", "1-2", "1-3", "1-4"]);
  });
});
