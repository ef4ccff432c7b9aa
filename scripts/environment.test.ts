// The product reads its settings through lib/config.ts, which validates each and names a bad one.
// Elsewhere in the app only these touch the environment, each for a reason config cannot serve.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { root, sourceFiles } from "./test-support/import-graph";

const allowed: Record<string, string[]> = {
  "lib/config.ts": ["process.env)"],
  // Hands next-auth the validated address it reads from the environment itself.
  "lib/auth/auth-options.ts": ["process.env.NEXTAUTH_URL ="],
  // The devnet's child process inherits the environment, as any child does.
  "lib/chains/devnet.ts": ["...process.env"],
  // Built when its module loads, before the configuration is read: a bad setting must reach the
  // operator as configOrExit's message, not as a failed import of everything that logs.
  "lib/log.ts": ["process.env.LOG_LEVEL"],
  // OpenTelemetry's standard variables, which its SDK reads on its own as well.
  "lib/telemetry/start-tracing.ts": [
    "process.env)",
    "process.env.OTEL_SERVICE_NAME",
    "process.env.OTEL_METRICS_EXPORTER",
    "process.env.OTEL_LOGS_EXPORTER",
    "process.env.NEXT_OTEL_VERBOSE",
  ],
  // Set by Next.js for the runtime the hook runs in.
  "instrumentation.ts": ["process.env.NEXT_RUNTIME"],
};

/** Each use of `process.env` in `text`, with what follows it up to the variable's name or a write. */
function environmentReads(text: string): string[] {
  return [...text.matchAll(/(?:\.\.\.)?process\.env(?:\.\w+(?: =(?!=))?|\))?/g)].map((match) => match[0]);
}

describe("the environment", () => {
  it("is read through lib/config.ts", () => {
    const files = [
      ...["app", "lib", "components", "inngest"].flatMap((directory) => sourceFiles(directory)),
      "proxy.ts",
      "instrumentation.ts",
    ];
    const found: Record<string, string[]> = {};
    for (const file of files) {
      const reads = environmentReads(readFileSync(path.join(root, file), "utf8"));
      if (reads.length) found[file] = [...new Set(reads)];
    }
    expect(found).toEqual(allowed);
  });

  it.each([
    ["const port = process.env.SERVICE_DEVNET_PORT;", ["process.env.SERVICE_DEVNET_PORT"]],
    ['process.env.NEXTAUTH_URL = "x";', ["process.env.NEXTAUTH_URL ="]],
    ['if (process.env.NEXTAUTH_URL === "x") {}', ["process.env.NEXTAUTH_URL"]],
    ["parseConfig(process.env)", ["process.env)"]],
    ["const { SECRET } = process.env;", ["process.env"]],
    ["spawn(cmd, { env: { ...process.env } })", ["...process.env"]],
    ["config().baseUrl", []],
  ])("finds %s as %j", (text, reads) => {
    expect(environmentReads(text)).toEqual(reads);
  });
});
