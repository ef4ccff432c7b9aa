import { readdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import type { MigrationList, SchemaEngine } from "@prisma/schema-engine-wasm";
import { createPool } from "./create-pool";

// The Prisma CLI's migrate commands need a native schema engine that cannot be downloaded on
// these machines, so we drive the WASM build of the same engine through the pg driver adapter.
// It writes `_prisma_migrations` exactly like `prisma migrate deploy`.

const root = path.resolve(import.meta.dirname, "../..");
export const schemaPath = path.join(root, "prisma/schema.prisma");
export const migrationsDir = path.join(root, "prisma/migrations");
export const snapshotPath = path.join(migrationsDir, "schema.snapshot.prisma");
const emptyFilters = { externalTables: [], externalEnums: [] };

let wasmReady: Promise<typeof import("@prisma/schema-engine-wasm/schema_engine_bg")> | undefined;

function loadWasm() {
  wasmReady ??= (async () => {
    const bindings = await import("@prisma/schema-engine-wasm/schema_engine_bg");
    // The package does not export the .wasm file; it sits beside the exported bindings.
    const bindingsPath = createRequire(import.meta.url).resolve(
      "@prisma/schema-engine-wasm/schema_engine_bg",
    );
    const wasmPath = path.join(path.dirname(bindingsPath), "schema_engine_bg.wasm");
    // The engine leaves ~10 s timers behind after each command; unreferenced, they no longer
    // keep a finished command-line process alive.
    const imports: WebAssembly.ModuleImports = { ...(bindings as unknown as WebAssembly.ModuleImports) };
    for (const [name, binding] of Object.entries(imports)) {
      if (name.startsWith("__wbg_setTimeout_") && typeof binding === "function") {
        imports[name] = (...args: unknown[]) => {
          const timer = binding(...args) as NodeJS.Timeout;
          timer.unref?.();
          return timer;
        };
      }
    }
    const { instance } = await WebAssembly.instantiate(await readFile(wasmPath), {
      "./schema_engine_bg.js": imports,
    });
    bindings.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    return bindings;
  })();
  return wasmReady;
}

async function withEngine<T>(connectionString: string, run: (engine: SchemaEngine) => Promise<T>) {
  const { SchemaEngine } = await loadWasm();
  const schema = await readFile(schemaPath, "utf8");
  // Our own pool, so the engine's connection is closed when we are done with it (a template
  // database, for one, cannot be copied while anyone is connected).
  const pool = createPool(connectionString, 1);
  const adapter = bindMigrationAwareSqlAdapterFactory(new PrismaPg(pool));
  const engine = await SchemaEngine.new({ datamodels: [[schemaPath, schema]] }, () => {}, adapter);
  try {
    return await run(engine);
  } finally {
    engine.free();
    await pool.end();
  }
}

export async function listMigrations(): Promise<MigrationList> {
  const names = (await readdir(migrationsDir, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const migrationDirectories = await Promise.all(
    names.map(async (name) => ({
      path: name,
      migrationFile: {
        path: "migration.sql",
        content: {
          tag: "ok" as const,
          value: await readFile(path.join(migrationsDir, name, "migration.sql"), "utf8"),
        },
      },
    })),
  );
  const lockPath = path.join(migrationsDir, "migration_lock.toml");
  const lockContent = await readFile(lockPath, "utf8").catch(() => null);
  return {
    baseDir: migrationsDir,
    lockfile: { path: "migration_lock.toml", content: lockContent },
    shadowDbInitScript: "",
    migrationDirectories,
  };
}

/** Applies every migration in prisma/migrations not yet recorded in the database. */
export async function applyMigrations(connectionString: string): Promise<string[]> {
  const migrationsList = await listMigrations();
  return withEngine(connectionString, async (engine) => {
    const result = await engine.applyMigrations({ migrationsList, filters: emptyFilters });
    return result.appliedMigrationNames;
  });
}

/** Names of migrations in prisma/migrations that the database has not applied. */
export async function pendingMigrations(connectionString: string): Promise<string[]> {
  const migrationsList = await listMigrations();
  return withEngine(connectionString, async (engine) => {
    const result = await engine.diagnoseMigrationHistory({
      migrationsList,
      optInToShadowDatabase: false,
      filters: emptyFilters,
    });
    const history = result.history;
    if (history?.diagnostic === "databaseIsBehind") return history.unappliedMigrationNames;
    if (history?.diagnostic === "historiesDiverge") return history.unappliedMigrationNames;
    return [];
  });
}

/**
 * The SQL that takes a database migrated up to the last migration to the current schema.prisma.
 * The engine cannot describe a live database through the adapter here, so each migration keeps
 * the schema it produced (`schema.snapshot.prisma`) and the next one is a diff of two datamodels.
 */
export async function diffSinceLastMigration(connectionString: string): Promise<string> {
  const current = await readFile(schemaPath, "utf8");
  const snapshot = await readFile(snapshotPath, "utf8").catch(() => null);
  return withEngine(connectionString, async (engine) => {
    const result = await engine.diff({
      from:
        snapshot === null
          ? { tag: "empty" }
          : { tag: "schemaDatamodel", files: [{ path: snapshotPath, content: snapshot }] },
      to: { tag: "schemaDatamodel", files: [{ path: schemaPath, content: current }] },
      script: true,
      exitCode: null,
      filters: emptyFilters,
    });
    return result.stdout ?? "";
  });
}
