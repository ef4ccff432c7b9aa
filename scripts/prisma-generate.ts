// Generates the Prisma client offline. `prisma generate` does not use the schema engine, but the
// CLI looks for its binary first and would try to download it; any existing file satisfies it.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";

const prismaCli = path.join(
  path.dirname(createRequire(import.meta.url).resolve("prisma/package.json")),
  "build/index.js",
);
const result = spawnSync(process.execPath, [prismaCli, "generate"], {
  stdio: "inherit",
  env: {
    ...process.env,
    PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath,
    PRISMA_HIDE_UPDATE_MESSAGE: "1",
    CHECKPOINT_DISABLE: "1",
  },
});
process.exit(result.status ?? 1);
