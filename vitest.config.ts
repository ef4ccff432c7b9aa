import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { defaultServerConditions } from "vite";
import { defineConfig } from "vitest/config";

const root = import.meta.dirname;
// Integration files that open no database: they test a chain, the facilitator or a server on its
// own. Each gets a DATABASE_URL nothing listens on (scripts/test-support/database-per-file.ts), so
// a file that starts using the database fails until it leaves this list. CI's second pass, on the
// embedded database (.ci/run, TEST_DATABASE_FILES_ONLY=1), leaves them out: it would run the same
// code again, on the same cores, with nothing database-specific to find.
const databaseFreeFiles = [
  "lib/chains/solana/check-solana-destination.int.test.ts",
  "lib/chains/solana/local-solana.int.test.ts",
  "lib/chains/solana/solana-rpc-server.int.test.ts",
  "lib/chains/solana/solana-service-transfers.int.test.ts",
  "lib/chains/solana/solana-x402-scheme.int.test.ts",
  "lib/chains/solana/token-transfer.int.test.ts",
  "lib/chains/test-usdc-eip3009.int.test.ts",
  "lib/x402/await-facilitator-receipt.int.test.ts",
  "lib/x402/create-built-in-facilitator.int.test.ts",
  "lib/x402/serve-facilitator.int.test.ts",
  "scripts/app-server.int.test.ts",
  "scripts/route-methods.int.test.ts",
];
const missing = databaseFreeFiles.filter((file) => !existsSync(path.join(root, file)));
if (missing.length > 0)
  throw new Error(`vitest.config.ts: no such database-free file: ${missing.join(", ")}`);
// The agent kit's exports resolve to its TypeScript sources here (published installs get dist/);
// otherwise Vitest's own server conditions, which leave out "module" to load packages as Node does.
const conditions = [
  "crypto-checkout-source",
  ...defaultServerConditions.filter((condition) => condition !== "module"),
];
const shared = {
  resolve: { alias: { "@": root } },
  ssr: { resolve: { conditions } },
};

export default defineConfig({
  // Vitest keeps each file's last duration in <cacheDir>/vitest/results.json and runs the slowest
  // first, so a run does not end on one long file alone; a clean clone has no such file, and CI
  // (.ci/run) keeps it outside the clone with TEST_CACHE_DIR. Unset: Vite's node_modules/.vite.
  cacheDir: process.env.TEST_CACHE_DIR || undefined,
  test: {
    // A worker per core, and at least two: integration files spend most of their time waiting on
    // PostgreSQL, devnets and child processes, and each has its own database and devnet port, so
    // they can overlap (Vitest's default on 2 cores is one worker). TEST_WORKERS overrides it.
    maxWorkers: Number(process.env.TEST_WORKERS) || Math.max(2, availableParallelism()),
    projects: [
      {
        ...shared,
        test: {
          name: "unit",
          environment: "node",
          include: ["{app,components,lib,inngest,scripts,packages}/**/*.test.{ts,tsx}"],
          exclude: ["**/*.int.test.{ts,tsx}", "**/node_modules/**"],
          // A hang guard, not a speed check: some pure tests do seconds of elliptic-curve math,
          // and in npm test Vitest shares the cores with the build and the browsers.
          testTimeout: 30_000,
        },
      },
      {
        ...shared,
        test: {
          name: "integration",
          environment: "node",
          include: ["{app,components,lib,inngest,scripts,packages}/**/*.int.test.{ts,tsx}"],
          exclude: [
            "**/node_modules/**",
            ...(process.env.TEST_DATABASE_FILES_ONLY === "1" ? databaseFreeFiles : []),
          ],
          provide: { databaseFreeFiles },
          globalSetup: [path.join(root, "scripts/test-support/database-global-setup.ts")],
          setupFiles: [
            path.join(root, "scripts/test-support/integration-env.ts"),
            path.join(root, "scripts/test-support/database-per-file.ts"),
          ],
          // A hang guard too: with both passes, the build and the browsers on 2 cores, a test
          // that starts processes or a devnet has taken over 20 s.
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
