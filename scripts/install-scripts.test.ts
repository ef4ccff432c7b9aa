// npm 11.16+ lists, after every install, the dependencies whose install scripts package.json's
// `allowScripts` neither approves nor denies (and a later npm runs only the approved ones): every
// locked package with an install script must be decided there, so a fresh install prints nothing.
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const readJson = (file: string) => JSON.parse(readFileSync(path.join(root, file), "utf8"));

it("every locked package with an install script is approved or denied in allowScripts", () => {
  const decided = Object.keys(readJson("package.json").allowScripts ?? {});
  const lock: { packages: Record<string, { version?: string; hasInstallScript?: boolean }> } =
    readJson("package-lock.json");
  const undecided = Object.entries(lock.packages).flatMap(([where, entry]) => {
    // The root and the workspaces are the project's own scripts.
    if (!entry.hasInstallScript || !where.includes("node_modules/")) return [];
    const name = where.slice(where.lastIndexOf("node_modules/") + "node_modules/".length);
    return decided.includes(name) || decided.includes(`${name}@${entry.version}`) ? [] : [name];
  });
  expect(undecided).toEqual([]);
});
