// Gives the test file that loads it its own migrated database and points DATABASE_URL at it
// before any application module reads the configuration; a file that opens none
// (vitest.config.ts, databaseFreeFiles) gets a URL nothing listens on instead.
import path from "node:path";
import pg from "pg";
import { afterAll, expect, inject } from "vitest";
import { disconnectDb } from "../../lib/db/client";
import { randomBase62 } from "../../lib/ids";
import { takeReadyCopy } from "./database-copies";
import { databaseUrlWithName, serverTestDatabaseUrl } from "./database-urls";

const target = inject("testDatabase");
const file = path.relative(path.resolve(import.meta.dirname, "../.."), expect.getState().testPath ?? "");

if (inject("databaseFreeFiles").includes(file)) {
  // Port 1: every connection is refused at once, so any use of the database fails the file.
  process.env.DATABASE_URL = "postgresql://postgres@127.0.0.1:1/no_database";
} else if (target.mode === "server") {
  const serverUrl = serverTestDatabaseUrl() as string;
  const name = `cc_test_${randomBase62(12).toLowerCase()}`;
  const admin = new pg.Client(serverUrl);
  await admin.connect();
  if (!(await takeReadyCopy(admin, target.templateName, name)))
    await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${target.templateName}"`);
  await admin.end();
  process.env.DATABASE_URL = databaseUrlWithName(serverUrl, name);
  afterAll(async () => {
    await disconnectDb();
    const cleanup = new pg.Client(serverUrl);
    await cleanup.connect();
    await cleanup.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await cleanup.end();
  });
} else {
  // One database per file from this worker's farm (VITEST_POOL_ID runs from 1 to maxWorkers).
  const farm = target.farmUrls[(Number(process.env.VITEST_POOL_ID) - 1) % target.farmUrls.length];
  const created = await fetch(farm, { method: "POST" });
  if (!created.ok) throw new Error(`embedded database farm: ${created.status} ${await created.text()}`);
  const { id, url } = (await created.json()) as { id: string; url: string };
  process.env.DATABASE_URL = url;
  // One connection, as `npm start` uses on the embedded server: its multiplexed connections share
  // one session and would not isolate concurrent transactions.
  process.env.DATABASE_POOL_SIZE = "1";
  afterAll(async () => {
    await disconnectDb();
    await fetch(`${farm}/${id}`, { method: "DELETE" });
  });
}
