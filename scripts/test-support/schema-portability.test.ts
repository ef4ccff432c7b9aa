import { describe, expect, it } from "vitest";
import { portabilityFindings, toolListFindings } from "./schema-portability";

// The Inspector's verdicts on literal schemas: what its strict check reports, and what it accepts.

describe("portabilityFindings", () => {
  it.each<[string, unknown, string[]]>([
    ["a nullable string as a type array", { type: ["string", "null"] }, ["type-union@"]],
    ["a nullable string as anyOf branches", { anyOf: [{ type: "string" }, { type: "null" }] }, []],
    [
      "a type array deep in an object",
      {
        type: "object",
        properties: { a: { type: "object", additionalProperties: { type: ["number", "null"] } } },
      },
      ["type-union@properties.a.additionalProperties"],
    ],
    ["a type array with an unknown type name", { type: ["string", "date"] }, []],
    ["a type array naming a type twice", { type: ["string", "string"] }, []],
    ["an empty schema", {}, ["untyped-schema@"]],
    [
      "a description only",
      { type: "object", properties: { a: { description: "x" } } },
      ["untyped-schema@properties.a"],
    ],
    ["anything under not", { not: {} }, []],
    ["if without then or else", { if: { const: 1 } }, ["untyped-schema@"]],
    // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword.
    ["if with then", { if: { const: 1 }, then: { type: "string" } }, []],
    [
      "a boolean property schema",
      { type: "object", properties: { a: true } },
      ["boolean-schema@properties.a"],
    ],
    ["additionalProperties false", { type: "object", additionalProperties: false }, []],
    ["a boolean in items", { type: "array", items: false }, ["boolean-schema@items"]],
    [
      "tuple items",
      { type: "array", items: [{ type: "string" }, { type: ["string", "null"] }] },
      ["type-union@items[1]"],
    ],
    ["a remote reference", { $ref: "https://example.com/schema.json" }, ["remote-ref@"]],
    ["a local reference", { $ref: "#/definitions/a", definitions: { a: { type: "string" } } }, []],
    ["a remote reference beside an embedded $id", { $id: "urn:a", $ref: "urn:b" }, []],
  ])("%s", (_case, schema, expected) => {
    expect(portabilityFindings(schema).map((finding) => `${finding.rule}@${finding.path}`)).toEqual(expected);
  });

  it("names the tool and the schema in a tools/list answer", () => {
    expect(
      toolListFindings([
        { name: "ok", inputSchema: { type: "object" } },
        {
          name: "bad",
          inputSchema: { type: ["object", "null"] },
          outputSchema: { type: "object", properties: { a: {} } },
        },
      ]),
    ).toEqual([
      "bad inputSchema: type-union (warning)",
      "bad outputSchema.properties.a: untyped-schema (warning)",
    ]);
  });
});
