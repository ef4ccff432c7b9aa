// `npm run db:migration -- <name>`: writes prisma/migrations/<timestamp>_<name>/migration.sql
// from the difference between schema.prisma and the schema the last migration produced.
import { copyFile, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { diffSinceLastMigration, migrationsDir, schemaPath, snapshotPath } from "../lib/db/schema-engine";
import { withDatabase } from "./database";

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error("usage: npm run db:migration -- <name>   (lowercase letters, digits, _)");
  process.exit(2);
}

const sql = await withDatabase((url) => diffSinceLastMigration(url), { migrate: false });
if (!/\S/.test(sql.replace(/^--.*$/gm, ""))) {
  console.log("schema.prisma has no changes since the last migration; nothing written.");
  process.exit(0);
}
const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
const dir = path.join(migrationsDir, `${stamp}_${name}`);
await mkdir(dir, { recursive: true });
await writeFile(path.join(dir, "migration.sql"), sql);
await copyFile(schemaPath, snapshotPath);
console.log(`wrote ${path.relative(process.cwd(), dir)}/migration.sql`);
