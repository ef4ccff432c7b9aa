// `npm test` runs this after Vitest: which documented operations the tests' traffic exercised.
// callRoute and serveRoute record each documented operation they answer (and check the answer
// against the document) in the file named by OPENAPI_TRAFFIC_FILE. Every operation needs a success
// answer and an error answer from some test; each gap is listed and fails the check, so an
// operation documented without tests (or tests that bypass the contract check) cannot land.
import { readFileSync } from "node:fs";
import { openApiDocument } from "../app/api/openapi.json/openapi-document";

const file = process.argv[2];
if (!file) {
  console.error("usage: tsx scripts/openapi-coverage.ts <traffic file>");
  process.exit(2);
}

const seen = new Map<string, Set<"success" | "error">>();
for (const line of readFileSync(file, "utf8").split("\n").filter(Boolean)) {
  const { operationId, status } = JSON.parse(line) as { operationId: string; status: number };
  const kinds = seen.get(operationId) ?? new Set();
  if (status < 400) kinds.add("success");
  else if (status < 500) kinds.add("error");
  seen.set(operationId, kinds);
}

const gaps: string[] = [];
let operations = 0;
for (const [path, methods] of Object.entries(openApiDocument().paths)) {
  for (const [method, operation] of Object.entries(methods as Record<string, { operationId: string }>)) {
    operations++;
    const kinds = seen.get(operation.operationId);
    for (const kind of ["success", "error"] as const) {
      if (!kinds?.has(kind)) {
        gaps.push(
          `${operation.operationId} (${method.toUpperCase()} ${path}): no ${kind} answer in any test`,
        );
      }
    }
  }
}

if (gaps.length) {
  console.error(`OpenAPI operations without contract-checked test traffic:\n  ${gaps.join("\n  ")}`);
  process.exit(1);
}
console.log(
  `${operations} documented operations, each with a success and an error answer checked against the document.`,
);
