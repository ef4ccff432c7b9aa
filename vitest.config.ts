import { availableParallelism } from "node:os";
import path from "node:path";
import { defaultServerConditions } from "vite";
import { defineConfig } from "vitest/config";

const root = import.meta.dirname;
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
          exclude: ["**/node_modules/**"],
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
