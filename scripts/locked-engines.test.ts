// Every locked package must run on the oldest Node.js that package.json's `engines` promises:
// npm only warns (EBADENGINE) when one does not, and the warning scrolls past in an install log.
import { readFileSync } from "node:fs";
import path from "node:path";
import semver from "semver";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const readJson = (file: string) => JSON.parse(readFileSync(path.join(root, file), "utf8"));

type LockFile = { packages: Record<string, { version?: string; engines?: unknown }> };

/** The locked packages whose `engines.node` rejects the lowest version of `nodeRange`. */
function incompatibleWith(nodeRange: string, lock: LockFile): string[] {
  const oldest = semver.minVersion(nodeRange);
  if (!oldest) throw new Error(`engines.node "${nodeRange}" is not a version range`);
  return Object.entries(lock.packages).flatMap(([where, entry]) => {
    // Old packages list engines as an array of strings, which npm does not check either.
    const required = (entry.engines as { node?: unknown } | undefined)?.node;
    if (!where || typeof required !== "string") return [];
    const name = where.slice(where.lastIndexOf("node_modules/") + "node_modules/".length);
    return semver.satisfies(oldest, required) ? [] : [`${name}@${entry.version} needs node ${required}`];
  });
}

describe("incompatibleWith", () => {
  const lockWith = (engines: unknown): LockFile => ({
    packages: {
      "": { engines: { node: ">=20.19" } },
      "node_modules/a/node_modules/x": { version: "1.0.0", engines },
    },
  });
  it.each([
    [">=20.19", { node: ">=20" }, []],
    [">=20.19", { node: "^20.19.0 || >=22.12.0" }, []],
    [">=20.19", ["node >= 0.8"], []],
    [">=20.19", undefined, []],
    [">=20.19", { node: ">=22.12.0" }, ["x@1.0.0 needs node >=22.12.0"]],
    [">=20.19", { node: "^20.20.0" }, ["x@1.0.0 needs node ^20.20.0"]],
    [">=20.19", { bun: ">=1.2.0", node: ">=22.0.0" }, ["x@1.0.0 needs node >=22.0.0"]],
  ])("engines.node %s, locked engines %j -> %j", (range, engines, expected) => {
    expect(incompatibleWith(range, lockWith(engines))).toEqual(expected);
  });
});

it("every package in package-lock.json runs on the Node.js version package.json declares", () => {
  const declared: string = readJson("package.json").engines.node;
  expect(incompatibleWith(declared, readJson("package-lock.json"))).toEqual([]);
});
