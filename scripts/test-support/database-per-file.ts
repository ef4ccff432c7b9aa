// Gives the test file that loads it its own migrated database and points DATABASE_URL at it
// before any application module reads the configuration.
import { readFile } from "node:fs/promises";
import pg from "pg";
import { afterAll, inject } from "vitest";
import { disconnectDb } from "../../lib/db/client";
import { startEmbeddedPostgres } from "../../lib/db/embedded-postgres";
import { randomBase62 } from "../../lib/ids";
import { databaseUrlWithName, serverTestDatabaseUrl } from "./database-urls";

const target = inject("testDatabase");

if (target.mode === "server") {
  const serverUrl = serverTestDatabaseUrl() as string;
  const name = `cc_test_${randomBase62(12).toLowerCase()}`;
  const admin = new pg.Client(serverUrl);
  await admin.connect();
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
  const snapshot = new Blob([await readFile(target.snapshotFile)]);
  const embedded = await startEmbeddedPostgres({ snapshot });
  process.env.DATABASE_URL = embedded.url;
  // One connection, as `npm start` uses on the embedded server: its multiplexed connections share
  // one session and would not isolate concurrent transactions.
  process.env.DATABASE_POOL_SIZE = "1";
  afterAll(async () => {
    await disconnectDb();
    await embedded.stop();
  });
}
