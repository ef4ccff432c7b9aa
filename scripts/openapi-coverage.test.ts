import { spawnSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openApiDocument } from "@/app/api/openapi.json/openapi-document";

const root = path.resolve(import.meta.dirname, "..");
const folder = await mkdtemp(path.join(tmpdir(), "openapi-coverage-"));
afterAll(() => rm(folder, { recursive: true, force: true }));

const operationIds = Object.values(openApiDocument().paths).flatMap((methods) =>
  Object.values(methods as Record<string, { operationId: string }>).map((operation) => operation.operationId),
);

async function coverage(traffic: { operationId: string; status: number }[]) {
  const file = path.join(folder, `${Math.random()}.jsonl`);
  await writeFile(file, traffic.map((line) => `${JSON.stringify(line)}\n`).join(""));
  const result = spawnSync(
    path.join(root, "node_modules/.bin/tsx"),
    [path.join(root, "scripts/openapi-coverage.ts"), file],
    {
      encoding: "utf8",
      timeout: 60_000,
    },
  );
  return { status: result.status, output: result.stdout + result.stderr };
}

describe("openapi-coverage", () => {
  it("passes when every operation has a success and an error answer", async () => {
    const traffic = operationIds.flatMap((operationId) => [
      { operationId, status: 200 },
      { operationId, status: 404 },
    ]);
    const result = await coverage(traffic);
    expect(result.output).toContain(`${operationIds.length} documented operations`);
    expect(result.status).toBe(0);
  }, 60_000);

  it("fails and names each gap: no success, no error, or only 5xx", async () => {
    const traffic = operationIds.flatMap((operationId) =>
      operationId === "createCheckoutSession"
        ? [{ operationId, status: 500 }]
        : operationId === "startPayment"
          ? [{ operationId, status: 201 }]
          : [
              { operationId, status: 200 },
              { operationId, status: 400 },
            ],
    );
    const result = await coverage(traffic);
    expect(result.status).toBe(1);
    expect(result.output).toContain("createCheckoutSession (POST /api/checkout-sessions): no success answer");
    expect(result.output).toContain("createCheckoutSession (POST /api/checkout-sessions): no error answer");
    expect(result.output).toContain("startPayment (POST /api/public/payments): no error answer");
    expect(result.output).not.toContain("retrieveCheckoutSession");
  }, 60_000);
});
