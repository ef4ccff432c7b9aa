import { existsSync } from "node:fs";
import { defineConfig, devices } from "@playwright/test";

// End-to-end tests drive Debian's Chromium against a production build (`next start`) on a fresh
// database; scripts/e2e-server.ts brings the whole app up the way `npm start` does.
const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (!existsSync(chromium)) {
  throw new Error(
    `Chromium was not found at ${chromium}. Install it with \`sudo apt-get install -y chromium\` ` +
      "(Debian/Ubuntu), or point CHROMIUM_PATH at a Chromium or Chrome binary.",
  );
}

const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results/e2e-artifacts",
  // Spec files run side by side against the one shared app (each signs up merchants of its own;
  // the specs that start apps of their own use ports no other spec uses), the tests inside a file
  // in order. E2E_WORKERS sets how many at once.
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS) || 2,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [["list"], ["json", { outputFile: "test-results/e2e.json" }]],
  use: {
    baseURL,
    // A failed test keeps its trace (actions, DOM snapshots, network, console) and a screenshot;
    // the trace's screencast is left out: its frames, rendered for every test that passes too,
    // were about a tenth of the browser's CPU time.
    trace: { mode: "retain-on-failure", screenshots: false },
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: chromium,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"] } }],
  webServer: {
    command: `npx tsx scripts/e2e-server.ts`,
    url: `${baseURL}/api/health`,
    env: { E2E_PORT: String(port) },
    reuseExistingServer: false,
    // The first run builds the app.
    timeout: 600_000,
    stdout: "pipe",
    stderr: "pipe",
  },
});
