// Integration tests run on real PostgreSQL from TEST_DATABASE_URL (or DATABASE_URL): one migrated
// template database per run, and each test file gets a fresh copy of it, so files run in
// parallel without seeing each other. With neither set they run on embedded PostgreSQL: one
// migrated snapshot, loaded into a fresh in-memory instance per file.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres } from "../../lib/db/embedded-postgres";
import { applyMigrations } from "../../lib/db/schema-engine";
import { databaseUrlWithName, serverTestDatabaseUrl } from "./database-urls";

declare module "vitest" {
  export interface ProvidedContext {
    testDatabase: { mode: "server"; templateName: string } | { mode: "embedded"; snapshotFile: string };
  }
}

export default async function setup(project: TestProject) {
  const serverUrl = serverTestDatabaseUrl();
  if (serverUrl) {
    const templateName = `cc_template_${process.pid}_${Date.now()}`;
    const admin = new pg.Client(serverUrl);
    await admin.connect();
    await admin.query(`CREATE DATABASE "${templateName}"`);
    await applyMigrations(databaseUrlWithName(serverUrl, templateName));
    project.provide("testDatabase", { mode: "server", templateName });
    return async () => {
      await admin.query(`DROP DATABASE IF EXISTS "${templateName}" WITH (FORCE)`);
      await admin.end();
    };
  }

  const embedded = await startEmbeddedPostgres({});
  await applyMigrations(embedded.url);
  const snapshot = await embedded.snapshot();
  await embedded.stop();
  const directory = await mkdtemp(path.join(os.tmpdir(), "cc-test-"));
  const snapshotFile = path.join(directory, "migrated.tar");
  await writeFile(snapshotFile, Buffer.from(await snapshot.arrayBuffer()));
  project.provide("testDatabase", { mode: "embedded", snapshotFile });
  return () => rm(directory, { recursive: true, force: true });
}
