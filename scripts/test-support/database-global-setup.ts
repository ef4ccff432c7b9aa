// Integration tests run on real PostgreSQL from TEST_DATABASE_URL (or DATABASE_URL): one migrated
// template database per run, and each test file gets a fresh copy of it (made ahead, see
// database-copies.ts), so files run in parallel without seeing each other. With neither set they
// run on embedded PostgreSQL: one migrated data directory, and each file gets a fresh copy of it
// started by a farm process (embedded-database-farm.ts), one farm per Vitest worker.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { startEmbeddedPostgres } from "../../lib/db/embedded-postgres";
import { applyMigrations } from "../../lib/db/schema-engine";
import { startReadyCopies } from "./database-copies";
import { databaseUrlWithName, serverTestDatabaseUrl } from "./database-urls";

declare module "vitest" {
  export interface ProvidedContext {
    testDatabase: { mode: "server"; templateName: string } | { mode: "embedded"; farmUrls: string[] };
    /** Integration files that get no database (vitest.config.ts). */
    databaseFreeFiles: string[];
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
    const copies = startReadyCopies(serverUrl, templateName, project.globalConfig.maxWorkers);
    project.provide("testDatabase", { mode: "server", templateName });
    return async () => {
      await copies.stop();
      await admin.query(`DROP DATABASE IF EXISTS "${templateName}" WITH (FORCE)`);
      await admin.end();
    };
  }

  // Copies are written on every start and removed after each file: in memory where Linux offers it.
  const directory = await mkdtemp(path.join(existsSync("/dev/shm") ? "/dev/shm" : os.tmpdir(), "cc-test-"));
  const template = path.join(directory, "migrated");
  const embedded = await startEmbeddedPostgres({ dataDir: template });
  await applyMigrations(embedded.url);
  await embedded.stop();
  const farms = await Promise.all(
    Array.from({ length: project.globalConfig.maxWorkers }, () => startFarm(template)),
  );
  project.provide("testDatabase", { mode: "embedded", farmUrls: farms.map((farm) => farm.url) });
  return async () => {
    await Promise.all(farms.map((farm) => farm.stop()));
    await rm(directory, { recursive: true, force: true });
  };
}

async function startFarm(template: string) {
  const child: ChildProcess = spawn(
    process.execPath,
    ["--import", "tsx", path.join(import.meta.dirname, "embedded-database-farm.ts"), template],
    { stdio: ["pipe", "pipe", "inherit"] },
  );
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const first = await Promise.race([
    new Promise<string>((resolve) => lines.once("line", resolve)),
    exited.then(() => {
      throw new Error("the embedded database farm exited before it listened");
    }),
  ]);
  const { port } = JSON.parse(first) as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      child.stdin?.end();
      await exited;
    },
  };
}
