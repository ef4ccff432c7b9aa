// Each MCP tool with a REST twin takes that operation's inputs, by the same names: the body's
// properties and the query and path parameters of the served OpenAPI document. What a tool adds
// or leaves out on purpose is named with its reason in ./rest-twins.ts.
import { type ToolDefinition, toolByName } from "crypto-checkout-agent/catalog";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { openApiDocument } from "@/app/api/openapi.json/openapi-document";
import { type RestTwin, restTwins } from "./rest-twins";

type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
};
type Parameter = { name: string; in: string; required: boolean; schema: JsonSchema };
type Operation = {
  parameters: (Parameter | { $ref: string })[];
  requestBody?: { required: boolean; content: Record<string, { schema: JsonSchema }> };
};

const document = openApiDocument() as unknown as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, JsonSchema> };
};

const resolve = (schema: JsonSchema): JsonSchema =>
  schema.$ref ? resolve(document.components.schemas[schema.$ref.split("/").pop() as string]) : schema;

/** The JSON types a schema allows (`null` included), so `string` and `["string", "null"]` differ. */
function types(schema: JsonSchema): string[] {
  const resolved = resolve(schema);
  const branches = resolved.anyOf ?? resolved.oneOf;
  if (branches) return [...new Set(branches.flatMap(types))].sort();
  if (resolved.type !== undefined) return [resolved.type].flat().sort();
  if (resolved.const !== undefined) return [typeof resolved.const];
  return [];
}

type Input = { types: string[]; required: boolean };

/** A REST operation's inputs: path and query parameters, and the body's properties (of every variant). */
function restInputs(route: string): Record<string, Input> {
  const [method, path] = route.split(" ");
  const operation = document.paths[path]?.[method];
  if (!operation) throw new Error(`the served document has no ${route}`);
  const inputs: Record<string, Input> = {};
  for (const parameter of operation.parameters) {
    if ("in" in parameter && (parameter.in === "path" || parameter.in === "query")) {
      inputs[parameter.name] = { types: types(parameter.schema), required: parameter.required };
    }
  }
  const body = operation.requestBody?.content["application/json"]?.schema;
  if (body) {
    const resolved = resolve(body);
    const variants = (resolved.anyOf ?? resolved.oneOf ?? [resolved]).map(resolve);
    for (const variant of variants) {
      for (const [name, schema] of Object.entries(variant.properties ?? {})) {
        // A property of a union's variant is required only where every variant requires it.
        const required =
          Boolean(operation.requestBody?.required) &&
          variants.every((other) => (other.required ?? []).includes(name));
        inputs[name] = { types: types(schema), required };
      }
    }
  }
  return inputs;
}

/** A tool's arguments as clients see them: the JSON Schema of its input. */
function toolInputs(tool: ToolDefinition): Record<string, Input> {
  const schema = z.toJSONSchema(tool.inputSchema, { io: "input" }) as JsonSchema;
  return Object.fromEntries(
    Object.entries(schema.properties ?? {}).map(([name, property]) => [
      name,
      { types: types(property), required: (schema.required ?? []).includes(name) },
    ]),
  );
}

/** What a tool's arguments must be: the REST inputs, less what it leaves out, plus what it adds. */
function expectedInputs(tool: ToolDefinition, twin: RestTwin) {
  const rest = restInputs(twin.route);
  const listed = toolInputs(tool);
  const names = [
    ...Object.keys(rest).filter((name) => !(name in (twin.missing ?? {}))),
    ...Object.keys(twin.extra ?? {}),
  ];
  return { names: names.sort(), rest, listed };
}

const twins = Object.entries(restTwins) as [string, RestTwin][];

describe("MCP tools' input schemas", () => {
  it.each(twins.map(([name, twin]) => [name, twin.route, twin] as const))(
    "%s takes the inputs of %s",
    (name, _route, twin) => {
      const tool = toolByName.get(name) as ToolDefinition;
      const { names, rest, listed } = expectedInputs(tool, twin);
      expect(Object.keys(listed).sort()).toEqual(names);
      // A shared input has the same JSON types, and a REST input the API needs the tool needs too.
      for (const input of Object.keys(listed).filter((key) => key in rest)) {
        expect({ input, types: listed[input].types }).toEqual({ input, types: rest[input].types });
        if (rest[input].required)
          expect({ input, required: listed[input].required }).toEqual({ input, required: true });
      }
    },
  );

  it("names only differences there are", () => {
    for (const [name, twin] of twins) {
      const rest = restInputs(twin.route);
      const listed = toolInputs(toolByName.get(name) as ToolDefinition);
      for (const extra of Object.keys(twin.extra ?? {}))
        expect({ name, extra, inRest: extra in rest }).toEqual({ name, extra, inRest: false });
      for (const missing of Object.keys(twin.missing ?? {})) {
        expect({ name, missing, inRest: missing in rest, inTool: missing in listed }).toEqual({
          name,
          missing,
          inRest: true,
          inTool: false,
        });
      }
    }
  });

  it("tells a renamed argument from REST's", () => {
    const twin = restTwins.service_webhooks_redeliver as RestTwin;
    const renamed = {
      ...(toolByName.get("service_webhooks_redeliver") as ToolDefinition),
      inputSchema: z.strictObject({ endpointId: z.string(), eventId: z.string() }),
    };
    expect(Object.keys(toolInputs(renamed)).sort()).not.toEqual(expectedInputs(renamed, twin).names);
  });
});
