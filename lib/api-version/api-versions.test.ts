import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { apiVersions, latestApiVersion } from "./api-versions";

describe("API versions", () => {
  it("are dates, oldest first, and the latest is the last", () => {
    expect(apiVersions.every((version) => /^\d{4}-\d{2}-\d{2}$/.test(version))).toBe(true);
    expect([...apiVersions].sort()).toEqual([...apiVersions]);
    expect(latestApiVersion).toBe(apiVersions.at(-1));
  });

  it("new organizations are pinned to the latest version (the column default)", () => {
    const schema = readFileSync(path.resolve(import.meta.dirname, "../../prisma/schema.prisma"), "utf8");
    expect(schema).toMatch(new RegExp(`apiVersion\\s+String\\s+@default\\("${latestApiVersion}"\\)`));
  });
});
