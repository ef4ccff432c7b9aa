// The layers point one way: lib (domain code) never imports app/, components/ or inngest/, and
// components/ never imports app/ (server actions reach components as props). Inside lib, lib/http
// is the edge (caller-kind wrappers that import domains), so nothing else in lib imports it.
// Tests may reach up.
import { describe, expect, it } from "vitest";
import { importsOf, importTarget, sourceFiles, specifiersOf } from "./test-support/import-graph";

const forbidden: Record<string, string[]> = {
  lib: ["app", "components", "inngest"],
  components: ["app"],
};

const topFolder = (target: string) => target.split("/")[0];

function upwardImports(layer: string): string[] {
  return sourceFiles(layer).flatMap((file) =>
    importsOf(file)
      .filter((target) => forbidden[layer].includes(topFolder(target)))
      .map((target) => `${file} imports ${target}`),
  );
}

/** Whether `file` may not import `target` because `target` is the edge (lib/http) and `file` is below it. */
function reachesEdge(file: string, target: string): boolean {
  return target.startsWith("lib/http/") && file.startsWith("lib/") && !file.startsWith("lib/http/");
}

describe("layers", () => {
  it.each(Object.keys(forbidden))("%s imports nothing from a layer above it", (layer) => {
    expect(upwardImports(layer)).toEqual([]);
  });

  it("nothing in lib outside lib/http imports lib/http", () => {
    const found = sourceFiles("lib").flatMap((file) =>
      importsOf(file)
        .filter((target) => reachesEdge(file, target))
        .map((target) => `${file} imports ${target}`),
    );
    expect(found).toEqual([]);
  });

  it("money arithmetic goes through lib/money: nothing else imports decimal.js", () => {
    const found = ["lib", "app", "components", "inngest", "scripts"].flatMap((layer) =>
      sourceFiles(layer).filter(
        (file) => file !== "lib/money/decimal.ts" && specifiersOf(file).includes("decimal.js"),
      ),
    );
    expect(found).toEqual([]);
  });

  it.each([
    ["lib/jobs/x.ts", "../../inngest/client", "inngest/client"],
    ["lib/jobs/x.ts", "@/app/dashboard/actions", "app/dashboard/actions"],
    ["components/a/b.tsx", "../../app/x", "app/x"],
    ["lib/jobs/x.ts", "./inngest-client", "lib/jobs/inngest-client"],
    ["lib/jobs/x.ts", "../http/route.ts", "lib/http/route"],
    ["lib/jobs/x.ts", "zod", null],
  ])("%s → %s lands on %s", (file, specifier, target) => {
    expect(importTarget(file, specifier)).toBe(target);
  });

  it.each([
    ["lib/payments/x.ts", "lib/http/route", true],
    ["lib/config.ts", "lib/http/error-response", true],
    ["lib/mcp/x.ts", "lib/http/fields", true],
    ["lib/http/route.ts", "lib/http/error-response", false],
    ["app/api/x/route.ts", "lib/http/route", false],
    ["lib/payments/x.ts", "lib/validation/fields", false],
  ])("%s → %s reaches the edge: %s", (file, target, expected) => {
    expect(reachesEdge(file, target)).toBe(expected);
  });
});
