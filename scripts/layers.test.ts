// The layers point one way: lib (domain code) never imports app/, components/ or inngest/, and
// components/ never imports app/ (server actions reach components as props). Tests may reach up.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const forbidden: Record<string, string[]> = {
  lib: ["app", "components", "inngest"],
  components: ["app"],
};

function sourceFiles(directory: string): string[] {
  return readdirSync(path.join(root, directory), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .filter((file) => !file.startsWith(`lib${path.sep}generated${path.sep}`));
}

/** The top-level folder an import specifier of `file` lands in, or null for a package. */
function targetFolder(file: string, specifier: string): string | null {
  if (specifier.startsWith("@/")) return specifier.slice(2).split("/")[0];
  if (!specifier.startsWith(".")) return null;
  return path.relative(root, path.resolve(root, path.dirname(file), specifier)).split(path.sep)[0];
}

function upwardImports(layer: string): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(layer)) {
    const text = readFileSync(path.join(root, file), "utf8");
    const specifiers = text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)["']([^"']+)["']/gm);
    for (const [, specifier] of specifiers) {
      const target = targetFolder(file, specifier);
      if (target && forbidden[layer].includes(target)) found.push(`${file} imports ${specifier}`);
    }
  }
  return found;
}

describe("layers", () => {
  it.each(Object.keys(forbidden))("%s imports nothing from a layer above it", (layer) => {
    expect(upwardImports(layer)).toEqual([]);
  });

  it.each([
    ["lib/jobs/x.ts", "../../inngest/client", "inngest"],
    ["lib/jobs/x.ts", "@/app/dashboard/actions", "app"],
    ["components/a/b.tsx", "../../app/x", "app"],
    ["lib/jobs/x.ts", "./inngest-client", "lib"],
    ["lib/jobs/x.ts", "zod", null],
  ])("%s → %s lands in %s", (file, specifier, folder) => {
    expect(targetFolder(file, specifier)).toBe(folder);
  });
});
