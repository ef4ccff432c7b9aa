import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ServiceError } from "../errors";
import { parseOrThrow } from "./validation-error";

const schema = z.strictObject({
  amount: z.string(),
  nested: z.strictObject({ url: z.url() }).optional(),
  count: z.number().int().min(1).optional(),
});

describe("parseOrThrow", () => {
  it("returns the parsed value", () => {
    expect(parseOrThrow(schema, { amount: "1" })).toEqual({ amount: "1" });
  });

  it.each([
    [{}, "parameter_missing", "amount"],
    [{ amount: 1 }, "parameter_invalid", "amount"],
    [{ amount: "1", extra: true }, "parameter_unknown", "extra"],
    [{ amount: "1", nested: { url: "nope" } }, "parameter_invalid", "nested.url"],
    [{ amount: "1", nested: { url: "https://x.y", more: 1 } }, "parameter_unknown", "nested.more"],
    [{ amount: "1", count: 0 }, "parameter_invalid", "count"],
    [null, "parameter_invalid", undefined],
    [[], "parameter_invalid", undefined],
  ])("%j -> 400 %s on %s", (body, code, param) => {
    try {
      parseOrThrow(schema, body);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ServiceError);
      expect(error).toMatchObject({ status: 400, type: "invalid_request_error", code, param });
      expect((error as Error).message.length).toBeGreaterThan(5);
    }
  });
});
