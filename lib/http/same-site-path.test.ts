import { describe, expect, it } from "vitest";
import { sameSitePath } from "./same-site-path";

describe("sameSitePath", () => {
  it.each<[string | undefined, string]>([
    ["/agent/setup?code=BCDF-GHJK", "/agent/setup?code=BCDF-GHJK"],
    ["/dashboard/agents", "/dashboard/agents"],
    [undefined, "/dashboard"],
    ["", "/dashboard"],
    ["https://evil.example/", "/dashboard"],
    ["//evil.example/path", "/dashboard"],
    ["/\\evil.example", "/dashboard"],
    ["javascript:alert(1)", "/dashboard"],
    ["agent/setup", "/dashboard"],
  ])("%s → %s", (candidate, expected) => {
    expect(sameSitePath(candidate)).toBe(expected);
  });
});
