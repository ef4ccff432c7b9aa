// The project's import graph as the layer and cycle checks see it: every non-test source file
// and the repository paths its imports resolve to (packages are left out).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

export const root = path.resolve(import.meta.dirname, "../..");

export function sourceFiles(directory: string, options: { tests?: boolean } = {}): string[] {
  return readdirSync(path.join(root, directory), { withFileTypes: true, recursive: true })
    .filter(
      (entry) =>
        entry.isFile() && /\.tsx?$/.test(entry.name) && (options.tests || !/\.test\.tsx?$/.test(entry.name)),
    )
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
    .filter((file) => !file.startsWith("lib/generated/"));
}

/** The repository path (without extension) an import specifier of `file` lands on, or null for a package. */
export function importTarget(file: string, specifier: string): string | null {
  if (specifier.startsWith("@/")) return specifier.slice(2).replace(/\.tsx?$/, "");
  if (!specifier.startsWith(".")) return null;
  return path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)).replace(/\.tsx?$/, "");
}

/** The specifiers `file` imports as written (static imports, `import type`, dynamic `import()`, re-exports). */
export function specifiersOf(file: string): string[] {
  return specifiersIn(readFileSync(path.join(root, file), "utf8"));
}

/** The specifiers a module's source text imports as written. */
export function specifiersIn(text: string): string[] {
  const specifiers = text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)["']([^"']+)["']/gm);
  return [...specifiers].map(([, specifier]) => specifier);
}

/** Repository paths imported by `file`. */
export function importsOf(file: string): string[] {
  return specifiersOf(file)
    .map((specifier) => importTarget(file, specifier))
    .filter((target) => target !== null);
}
