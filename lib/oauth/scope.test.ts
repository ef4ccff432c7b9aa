import { describe, expect, it } from "vitest";
import { accessOfScope, normalizeScope } from "./scope";

describe("normalizeScope", () => {
  it.each([
    [undefined, "read"],
    ["", "read"],
    ["read", "read"],
    ["write", "read write"],
    ["write read", "read write"],
    ["read  read", "read"],
    ["admin", null],
    ["read mcp:tools", null],
  ])("%s → %s", (requested, expected) => {
    expect(normalizeScope(requested)).toBe(expected);
  });

  it.each([
    ["read", "read"],
    ["read write", "write"],
  ])("access of %s is %s", (scope, access) => {
    expect(accessOfScope(scope)).toBe(access);
  });
});
