// `npm test`: lint, typecheck, unit + integration (Vitest) and end-to-end (Playwright), then one
// summary line `Tests: N passed, N failed, N skipped` summed over every suite. Lint, typecheck,
// the OpenAPI coverage check and the leftover-process check count as one test each (Redocly's lint
// of the document, the contract suite and the generated-client test are Vitest tests). Exits
// non-zero if anything failed.
//
// Stages that need nothing from each other overlap, so a 2-core machine is not idle while a
// Vitest file waits on PostgreSQL, a devnet or a child process, or a browser waits on the app:
// lint and the production build, then the typecheck and the end-to-end suite run beside Vitest,
// their output held in files under test-results/ and printed when each is done.
import { execFileSync, spawn } from "node:child_process";
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { buildIsStale, nextBuild } from "./build-if-needed";
import { type PlaywrightSuite, playwrightFailures, type VitestReport, vitestFailures } from "./failed-tests";

const root = path.resolve(import.meta.dirname, "..");
const bin = (name: string) => path.join(root, "node_modules/.bin", name);
const results = path.join(root, "test-results");
mkdirSync(results, { recursive: true });

type Counts = { passed: number; failed: number; skipped: number };
const suites: { name: string; counts: Counts }[] = [];
const failures: string[] = [];

/** Processes a suite left running: found here, they fail the run (and are stopped). */
const leftovers: string[] = [];

function groupAlive(pgid: number) {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs a suite in a process group of its own; anything of that group still alive after it is a
 * leak. With `log`, its output goes to that file instead of this terminal.
 */
async function run(
  command: string,
  args: string[],
  log?: string,
  env: Record<string, string> = {},
): Promise<number> {
  const output = log ? openSync(log, "w") : "inherit";
  const child = spawn(command, args, {
    cwd: root,
    stdio: ["ignore", output, output],
    env: { ...process.env, ...env },
    detached: true,
  });
  if (typeof output === "number") closeSync(output);
  // Ctrl-C reaches only this process now: pass it on to the suite's group.
  const forward = (signal: NodeJS.Signals) => process.kill(-(child.pid as number), signal);
  process.on("SIGINT", forward);
  process.on("SIGTERM", forward);
  const status = await new Promise<number>((resolve) => {
    child.once("error", () => resolve(1));
    child.once("exit", (code) => resolve(code ?? 1));
  });
  process.off("SIGINT", forward);
  process.off("SIGTERM", forward);
  // A moment for processes already told to stop; whatever still runs after that was left behind.
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  if (child.pid && groupAlive(child.pid)) {
    leftovers.push(`${path.basename(command)}: processes of its group still running after it exited`);
    process.kill(-child.pid, "SIGKILL");
  }
  return status;
}

/** The e2e apps' ports (the shared app and the extra instances) and their local chains' (scripts/e2e-server.ts). */
function e2ePorts() {
  const port = Number(process.env.E2E_PORT ?? 3100);
  const devnetBase = Number(process.env.E2E_DEVNET_PORT_BASE ?? 8700);
  return [0, 1, 2, 3, 4, 5, 6].flatMap((offset) => [
    port + offset,
    devnetBase + ((port + offset) % 100),
    devnetBase + 200 + ((port + offset) % 100),
  ]);
}

/** Listeners still on the e2e ports: apps that escaped their group (started detached) and outlived the run. */
function listenersOnE2ePorts(): string[] {
  const ports = new Set(e2ePorts());
  const lines = execFileSync("ss", ["-ltnpH"], { encoding: "utf8" }).split("\n");
  return lines.filter((line) => ports.has(Number(/:(\d+)\s/.exec(line)?.[1])));
}

function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as T;
  } catch {
    return undefined;
  }
}

/** Starts a stage beside the others, its output in test-results/<file>; `report` prints it. */
function background(command: string, args: string[], file: string, env: Record<string, string> = {}) {
  const log = path.join(results, file);
  const status = run(command, args, log, env);
  return {
    status,
    report: async (title: string) => {
      const code = await status;
      console.log(`\n━━ ${title}`);
      process.stdout.write(readFileSync(log, "utf8"));
      return code;
    },
  };
}

async function check(name: string, stage: ReturnType<typeof background>) {
  const ok = (await stage.report(name)) === 0;
  suites.push({ name, counts: { passed: ok ? 1 : 0, failed: ok ? 0 : 1, skipped: 0 } });
}

const lint = background(bin("biome"), ["ci", "."], "lint.log");
// The end-to-end suite's production build (`npm start` builds when sources are newer than it),
// without telemetry as there, goes first: the end-to-end suite waits on it. It skips its own type
// check (next.config.ts): tsc checks the same sources once the build is done, as tsc reads
// .next/types, which the build writes, and a type error fails this run all the same.
process.env.NEXT_TELEMETRY_DISABLED = "1";
const build = buildIsStale()
  ? background(nextBuild[0], [...nextBuild[1]], "build.log", { NEXT_BUILD_SKIP_TYPECHECK: "1" })
  : undefined;
const typecheck = Promise.resolve(build?.status).then(() =>
  background(bin("tsc"), ["--noEmit"], "typecheck.log"),
);
// The end-to-end suite starts on the build, beside Vitest: its browsers mostly wait on the app.
const playwrightReport = path.join(results, "e2e.json");
rmSync(playwrightReport, { force: true });
const e2e = Promise.resolve(build?.status).then(() => background(bin("playwright"), ["test"], "e2e.log"));

console.log("\n━━ unit + integration (vitest)");
const vitestReport = path.join(results, "vitest.json");
rmSync(vitestReport, { force: true });
// callRoute and serveRoute record the documented operations they answer here (see openapi-coverage).
const openApiTraffic = path.join(results, "openapi-traffic.jsonl");
writeFileSync(openApiTraffic, "");
process.env.OPENAPI_TRAFFIC_FILE = openApiTraffic;
const vitestStatus = await run(bin("vitest"), [
  "run",
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${vitestReport}`,
]);
const vitest = readJson<
  VitestReport & {
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    numTodoTests: number;
  }
>(vitestReport);
failures.push(...vitestFailures(vitest ?? { testResults: [] }, root).map((name) => `vitest: ${name}`));
if (vitestStatus !== 0 && failures.length === 0) {
  // Every test passed, yet the run failed: an error outside any test, which the JSON report omits.
  failures.push('vitest: an error outside the tests (its "Unhandled Errors" section above names the file)');
}
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

await check("lint (biome)", lint);
await check("typecheck (tsc)", await typecheck);
await check(
  "OpenAPI operations covered by contract-checked tests",
  background(
    bin("tsx"),
    [path.join(root, "scripts/openapi-coverage.ts"), openApiTraffic],
    "openapi-coverage.log",
  ),
);

// Its failure is the end-to-end suite's: Playwright's server builds again and reports it.
await build?.report("production build for the end-to-end suite");
const playwrightStatus = await (await e2e).report("end-to-end (playwright, chromium)");
const playwright = readJson<{
  stats: { expected: number; unexpected: number; flaky: number; skipped: number };
  suites: PlaywrightSuite[];
}>(playwrightReport);
failures.push(...playwrightFailures(playwright?.suites ?? []).map((name) => `e2e: ${name}`));
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

const listeners = listenersOnE2ePorts();
for (const line of listeners) {
  leftovers.push(`still listening: ${line.trim()}`);
  for (const [, pid] of line.matchAll(/pid=(\d+)/g)) process.kill(Number(pid), "SIGKILL");
}
console.log("\n━━ nothing left running");
for (const line of leftovers) console.log(`  ${line}`);
suites.push({
  name: "no leftover processes",
  counts: { passed: leftovers.length === 0 ? 1 : 0, failed: leftovers.length === 0 ? 0 : 1, skipped: 0 },
});

console.log("\n━━ summary");
for (const failure of failures) console.log(`  failed ${failure}`);
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
