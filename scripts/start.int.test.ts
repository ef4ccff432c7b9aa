import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const execute = promisify(execFile);

describe("npm start with bad configuration", () => {
  it("stops before doing anything and names every bad variable", async () => {
    const failure = await execute(
      process.execPath,
      [path.join(root, "node_modules/tsx/dist/cli.mjs"), "scripts/start.ts"],
      {
        cwd: root,
        env: { ...process.env, PORT: "eighty", DATABASE_URL: "mysql://user:hunter2@db/x", LOG_LEVEL: "" },
      },
    ).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toContain("Invalid configuration:");
    expect(failure?.stderr).toContain('PORT must be a port number (got "eighty")');
    expect(failure?.stderr).toContain("DATABASE_URL must be a postgres:// or postgresql:// URL");
    expect(failure?.stderr).not.toContain("hunter2");
  });
});
