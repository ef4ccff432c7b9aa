import { describe, expect, it } from "vitest";
import { ServiceError } from "../errors";
import { resolveApiVersion } from "./resolve-api-version";

describe("resolveApiVersion", () => {
  it.each([
    // requested header, organization's pinned version, version used
    [null, undefined, "2026-11-26"],
    [null, "2026-11-22", "2026-11-22"],
    ["2026-11-22", undefined, "2026-11-22"],
    [" 2026-11-22 ", "2026-11-22", "2026-11-22"],
    [null, "2026-11-26", "2026-11-26"],
    ["2026-11-26", "2026-11-22", "2026-11-26"],
    ["2026-11-22", "2026-11-26", "2026-11-22"],
  ])("header %j, pinned %j → %s", (requested, pinned, used) => {
    expect(resolveApiVersion(requested, pinned)).toBe(used);
  });

  it.each([["2020-01-01"], [""], ["latest"], ["2026-11-22; drop table"]])(
    "answers 400 invalid_api_version naming the header for %j",
    (requested) => {
      let thrown: unknown;
      try {
        resolveApiVersion(requested, "2026-11-22");
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ServiceError);
      expect(thrown).toMatchObject({ status: 400, code: "invalid_api_version", param: "X-Service-Version" });
      expect((thrown as Error).message).toContain("must be one of 2026-11-22, 2026-11-26");
    },
  );
});
