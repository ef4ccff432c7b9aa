import { spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import { callRoute } from "@/scripts/test-support/call-route";
import { GET } from "./route";

const root = path.resolve(import.meta.dirname, "../../..");
// The document as a deployment serves it: its server is the configured public address.
process.env.SERVICE_BASE_URL = "https://checkout.shop.test";

it("passes Redocly's recommended ruleset with no error and no warning", async () => {
  const served = await callRoute(GET, "/api/openapi.json");
  expect(served.json.servers).toEqual([expect.objectContaining({ url: "https://checkout.shop.test" })]);
  const folder = await mkdtemp(path.join(tmpdir(), "openapi-lint-"));
  try {
    const file = path.join(folder, "openapi.json");
    await writeFile(file, served.text);
    const lint = spawnSync(
      path.join(root, "node_modules/.bin/redocly"),
      ["lint", file, "--config", path.join(root, "redocly.yaml"), "--format", "json"],
      // Telemetry off: the lint must not reach Redocly's servers (nor wait for them offline).
      { encoding: "utf8", env: { ...process.env, REDOCLY_TELEMETRY: "off" }, timeout: 120_000 },
    );
    const report = JSON.parse(lint.stdout.slice(lint.stdout.indexOf("{")));
    expect(report.problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    expect(lint.status).toBe(0);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}, 180_000);
