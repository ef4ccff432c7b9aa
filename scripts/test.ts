// `npm test`: lint, typecheck, unit + integration (Vitest) and end-to-end (Playwright), then one
// summary line `Tests: N passed, N failed, N skipped` summed over every suite. Lint, typecheck and
// the OpenAPI coverage check count as one test each (Redocly's lint of the document, the contract
// suite and the generated-client test are Vitest tests). Exits non-zero if anything failed.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const bin = (name: string) => path.join(root, "node_modules/.bin", name);
const results = path.join(root, "test-results");
mkdirSync(results, { recursive: true });

type Counts = { passed: number; failed: number; skipped: number };
const suites: { name: string; counts: Counts }[] = [];

function run(command: string, args: string[]): number {
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env: process.env });
  return result.status ?? 1;
}

function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as T;
  } catch {
    return undefined;
  }
}

function check(name: string, command: string, args: string[]) {
  console.log(`\n━━ ${name}`);
  const ok = run(command, args) === 0;
  suites.push({ name, counts: { passed: ok ? 1 : 0, failed: ok ? 0 : 1, skipped: 0 } });
}

check("lint (biome)", bin("biome"), ["ci", "."]);
check("typecheck (tsc)", bin("tsc"), ["--noEmit"]);

console.log("\n━━ unit + integration (vitest)");
const vitestReport = path.join(results, "vitest.json");
rmSync(vitestReport, { force: true });
// callRoute and serveRoute record the documented operations they answer here (see openapi-coverage).
const openApiTraffic = path.join(results, "openapi-traffic.jsonl");
writeFileSync(openApiTraffic, "");
process.env.OPENAPI_TRAFFIC_FILE = openApiTraffic;
const vitestStatus = run(bin("vitest"), [
  "run",
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${vitestReport}`,
]);
const vitest = readJson<{
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
}>(vitestReport);
suites.push({
  name: "vitest",
  counts: vitest
    ? {
        passed: vitest.numPassedTests,
        // A crash outside any test (a failing setup file, say) still fails the suite.
        failed: vitest.numFailedTests || (vitestStatus === 0 ? 0 : 1),
        skipped: vitest.numPendingTests + vitest.numTodoTests,
      }
    : { passed: 0, failed: 1, skipped: 0 },
});

check("OpenAPI operations covered by contract-checked tests", bin("tsx"), [
  path.join(root, "scripts/openapi-coverage.ts"),
  openApiTraffic,
]);

console.log("\n━━ end-to-end (playwright, chromium)");
const playwrightReport = path.join(results, "e2e.json");
rmSync(playwrightReport, { force: true });
const playwrightStatus = run(bin("playwright"), ["test"]);
const playwright = readJson<{
  stats: { expected: number; unexpected: number; flaky: number; skipped: number };
}>(playwrightReport);
suites.push({
  name: "playwright",
  counts: playwright
    ? {
        passed: playwright.stats.expected + playwright.stats.flaky,
        failed: playwright.stats.unexpected || (playwrightStatus === 0 ? 0 : 1),
        skipped: playwright.stats.skipped,
      }
    : { passed: 0, failed: 1, skipped: 0 },
});

console.log("");
for (const { name, counts } of suites) {
  console.log(
    `  ${name.padEnd(24)} ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`,
  );
}
const total = suites.reduce(
  (sum, { counts }) => ({
    passed: sum.passed + counts.passed,
    failed: sum.failed + counts.failed,
    skipped: sum.skipped + counts.skipped,
  }),
  { passed: 0, failed: 0, skipped: 0 },
);
console.log(`Tests: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(total.failed === 0 ? 0 : 1);
