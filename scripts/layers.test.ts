// The layers point one way: lib (domain code) never imports app/, components/ or inngest/, and
// components/ never imports app/ (server actions reach components as props). Inside lib, lib/http
// is the edge (caller-kind wrappers that import domains), so nothing else in lib imports it.
// Tests may reach up. The agent kit (packages/agent) is a package: the app, its tests included,
// imports it only by name through its exports (`crypto-checkout-agent/catalog`, …), never its files.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  importsOf,
  importTarget,
  root,
  sourceFiles,
  specifiersIn,
  specifiersOf,
} from "./test-support/import-graph";

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

/** Imports in `text` (the source of `file`) that reach into the agent kit's files instead of its exports. */
function kitFileImports(file: string, text: string): string[] {
  return specifiersIn(text).filter(
    (specifier) =>
      importTarget(file, specifier)?.startsWith("packages/") ||
      /^crypto-checkout-agent\/(src|dist)(\/|$)/.test(specifier),
  );
}

const appFolders = ["app", "components", "lib", "inngest", "scripts", "e2e"];

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

  it("the app imports the agent kit only through its package exports", () => {
    // This file's planted imports below are strings, not imports.
    const files = appFolders.flatMap((folder) => sourceFiles(folder, { tests: true }));
    const found = files
      .filter((file) => file !== "scripts/layers.test.ts")
      .flatMap((file) =>
        kitFileImports(file, readFileSync(path.join(root, file), "utf8")).map(
          (specifier) => `${file} imports ${specifier}`,
        ),
      );
    expect(files.length).toBeGreaterThan(100);
    expect(found).toEqual([]);
  });

  it.each([
    ["lib/mcp/planted.ts", 'import { tools } from "../../packages/agent/src/catalog";', true],
    ["lib/mcp/planted.ts", 'export { tools } from "../../packages/agent/src/catalog/tools";', true],
    ["app/mcp/planted.int.test.ts", 'import { toolsFor } from "@/packages/agent/src/catalog";', true],
    ["e2e/planted.spec.ts", 'const kit = await import("../packages/agent/dist/catalog/index.js");', true],
    ["lib/planted.ts", 'import { tools } from "crypto-checkout-agent/src/catalog/tools";', true],
    ["lib/mcp/planted.ts", 'import { tools } from "crypto-checkout-agent/catalog";', false],
    ["lib/planted.ts", 'import { paylinkObject } from "crypto-checkout-agent/shapes";', false],
  ])("%s with `%s` reaches into the kit's files: %s", (file, text, refused) => {
    expect(kitFileImports(file, text).length > 0).toBe(refused);
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
