import { readdir } from "node:fs/promises";
import path from "node:path";
import type { Db } from "../db/client";

let expectedMigrations: Promise<string[]> | undefined;

function migrationsOnDisk() {
  expectedMigrations ??= readdir(path.join(process.cwd(), "prisma/migrations"), { withFileTypes: true }).then(
    (entries) =>
      entries
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
        .sort(),
  );
  return expectedMigrations;
}

export type Health = {
  status: "ok" | "degraded";
  database: "ok" | "unreachable";
  migrations: "current" | "pending" | "unknown";
  pendingMigrations?: string[];
};

/** Whether the database answers and has every migration this build ships. */
export async function checkHealth(database: Db): Promise<Health> {
  let applied: string[];
  try {
    const rows = await database.$queryRaw<{ migration_name: string }[]>`
      SELECT migration_name FROM _prisma_migrations
      WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`;
    applied = rows.map((row) => row.migration_name);
  } catch {
    return { status: "degraded", database: "unreachable", migrations: "unknown" };
  }
  const pending = (await migrationsOnDisk()).filter((name) => !applied.includes(name));
  return pending.length === 0
    ? { status: "ok", database: "ok", migrations: "current" }
    : { status: "degraded", database: "ok", migrations: "pending", pendingMigrations: pending };
}
