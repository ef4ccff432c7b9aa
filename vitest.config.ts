import path from "node:path";
import { defaultServerConditions } from "vite";
import { defineConfig } from "vitest/config";

const root = import.meta.dirname;
// The agent kit's exports resolve to its TypeScript sources here (published installs get dist/).
const conditions = ["crypto-checkout-source", ...defaultServerConditions];
const shared = {
  resolve: { alias: { "@": root } },
  ssr: { resolve: { conditions } },
};

export default defineConfig({
  test: {
    projects: [
      {
        ...shared,
        test: {
          name: "unit",
          environment: "node",
          include: ["{app,components,lib,inngest,scripts,packages}/**/*.test.{ts,tsx}"],
          exclude: ["**/*.int.test.{ts,tsx}", "**/node_modules/**"],
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
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
