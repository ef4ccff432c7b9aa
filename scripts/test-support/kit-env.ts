import { execFile } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { bundledEntry } from "./bundled-entry";

// The CLI's sources bundled once per test file: each command is a process of its own, and tsx
// compiled the kit's modules again in every one.
const cli = () => bundledEntry("packages/agent/src/cli.ts");

/**
 * The environment of an agent kit process (CLI or local MCP server) that talks to `appUrl`'s REST
 * API with the organization's API key, its config kept in `configHome` and nothing else inherited.
 */
export function kitEnv(configHome: string, appUrl: string, apiKey: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "",
    HOME: configHome,
    SERVICE_CONFIG_HOME: configHome,
    SERVICE_API_BASE_URL: `${appUrl}/api`,
    SERVICE_API_KEY: apiKey,
  };
}

/** Runs the kit's CLI with `args` and `--format json` in `env` (from `cwd`): its exit code and its JSON document. */
export async function runKitJson(env: Record<string, string>, args: string[], cwd?: string) {
  const bundle = await cli();
  return new Promise<{ code: number; json: Record<string, unknown> }>((resolve) => {
    execFile(
      process.execPath,
      [bundle, ...args, "--format", "json"],
      { env: { ...env, NODE_ENV: "test" as const }, cwd },
      (error, stdout) => resolve({ code: error ? Number(error.code) : 0, json: JSON.parse(stdout) }),
    );
  });
}

/** An MCP client connected to the kit's local server (`crypto-checkout mcp`) running in `env`. */
export async function connectLocalKit(env: Record<string, string>) {
  const client = new Client({ name: "kit-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [await cli(), "mcp"],
      env,
      stderr: "pipe",
    }),
  );
  return client;
}
