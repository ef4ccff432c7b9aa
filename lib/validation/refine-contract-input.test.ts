import { describe, expect, it } from "vitest";
import { z } from "zod";
import { refineContractInput } from "./refine-contract-input";

const contract = z.object({ name: z.string().max(10), count: z.number().optional() });
const part = z.object({ note: z.string().optional() });

describe("refineContractInput", () => {
  it("parses the contract's fields by the stricter rules, in the rules' order, and refuses others", () => {
    const schema = refineContractInput(contract, {
      count: z.coerce.number().int().default(1),
      name: z.string().trim().min(1, { error: "must not be empty" }),
    });
    expect(Object.keys(schema.shape)).toEqual(["count", "name"]);
    expect(schema.parse({ name: " a " })).toEqual({ count: 1, name: "a" });
    expect(schema.safeParse({ name: "  " }).error?.issues[0].message).toBe("must not be empty");
    expect(schema.safeParse({ name: "a", extra: 1 }).success).toBe(false);
  });

  it("takes the fields of every contract sharing the schema", () => {
    const schema = refineContractInput([contract, part], {
      name: z.string(),
      count: z.number().optional(),
      note: z.string().optional(),
    });
    expect(schema.parse({ name: "a", note: "b" })).toEqual({ name: "a", note: "b" });
  });

  it.each([
    ["a contract field without a rule", { name: z.string() }],
    ["a rule for a field the contract lacks", { name: z.string(), count: z.number(), colour: z.string() }],
  ])("throws on %s", (_case, rules) => {
    // The casts stand for a type error bypassed; the check still holds when the module loads.
    expect(() => refineContractInput(contract, rules as never)).toThrow(/do not match the contract's/);
  });
});
