// Each MCP tool with a REST twin takes that operation's inputs, by the same names: the body's
// properties and the query and path parameters of the served OpenAPI document. What a tool adds,
// narrows or leaves out on purpose its contract names with the reason (packages/agent/src/contracts),
// and each contract's inputs are its route's (all of them, or its part of a shared route's body).
import { type ToolDefinition, tools } from "crypto-checkout-agent/catalog";
import { type Contract, contracts, restShape } from "crypto-checkout-agent/contracts";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { openApiDocument } from "@/app/api/openapi.json/openapi-document";

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

const route = (contract: Contract) => `${contract.method} ${contract.path}`;

/** Inputs of a zod object as clients see them: the JSON Schema of each property. */
function inputsOf(schema: z.ZodObject): Record<string, Input> {
  const json = z.toJSONSchema(schema, { io: "input" }) as JsonSchema;
  return Object.fromEntries(
    Object.entries(json.properties ?? {}).map(([name, property]) => [
      name,
      { types: types(property), required: (json.required ?? []).includes(name) },
    ]),
  );
}

/** What a tool's arguments must be: its route's inputs, less those it leaves out, plus those it adds. */
function expectedNames(contract: Contract): string[] {
  const tool = contract.tool;
  // On a route several contracts share, each takes only its own fields.
  const shared = contracts.filter((other) => route(other) === route(contract)).length > 1;
  const own = new Set(Object.keys(restShape(contract.input)));
  const names = Object.keys(restInputs(route(contract))).filter(
    (name) => !(tool?.omit ?? []).includes(name) && (!shared || own.has(name)),
  );
  const added = [...Object.keys(tool?.add ?? {}), ...(tool?.confirmation ? ["confirmationToken"] : [])];
  return [...names, ...added].sort();
}

const twins = (tools as readonly ToolDefinition[]).flatMap((tool) =>
  tool.contract ? [[tool.name, route(tool.contract), tool, tool.contract] as const] : [],
);

describe("MCP tools' input schemas", () => {
  it.each(twins)("%s takes the inputs of %s", (_name, _route, tool, contract) => {
    const rest = restInputs(route(contract));
    const listed = inputsOf(tool.inputSchema);
    expect(Object.keys(listed).sort()).toEqual(expectedNames(contract));
    // A shared input has the same JSON types, and an input REST needs the tool needs too.
    for (const input of Object.keys(listed).filter((key) => key in rest)) {
      expect({ input, types: listed[input].types }).toEqual({ input, types: rest[input].types });
      if (rest[input].required) {
        expect({ input, required: listed[input].required }).toEqual({ input, required: true });
      }
    }
  });

  it.each(twins)("%s names its reason for each difference from %s", (_name, _route, _tool, contract) => {
    const tool = contract.tool;
    const differing = [
      ...Object.keys(tool?.add ?? {}),
      ...Object.keys(tool?.narrow ?? {}),
      ...(tool?.omit ?? []),
    ];
    expect(Object.keys(tool?.differs ?? {}).sort()).toEqual(differing.sort());
    const rest = restInputs(route(contract));
    for (const name of Object.keys(tool?.add ?? {}))
      expect({ name, inRest: name in rest }).toEqual({ name, inRest: false });
    for (const name of [...Object.keys(tool?.narrow ?? {}), ...(tool?.omit ?? [])]) {
      expect({ name, inRest: name in rest }).toEqual({ name, inRest: true });
    }
  });

  it.each([...new Set(contracts.map(route))])("the contracts of %s take its inputs", (served) => {
    const mine = contracts.filter((contract) => route(contract) === served);
    const inputs = Object.assign(
      {},
      ...mine.map((contract) => inputsOf(z.object(restShape(contract.input)))),
    );
    const rest = restInputs(served);
    expect(Object.keys(inputs).sort()).toEqual(Object.keys(rest).sort());
    for (const name of Object.keys(rest)) {
      expect({ name, types: inputs[name].types }).toEqual({ name, types: rest[name].types });
    }
    // Several contracts share a route only as its own and parts of it, each with fields of its own.
    expect(mine.filter((contract) => !contract.part)).toHaveLength(1);
    const fields = mine.flatMap((contract) => Object.keys(restShape(contract.input)));
    expect(new Set(fields).size).toBe(fields.length);
  });

  it("tells a renamed argument from REST's", () => {
    const redeliver = twins.find(([name]) => name === "service_webhooks_redeliver")?.[3] as Contract;
    const renamed = z.strictObject({ endpointId: z.string(), eventId: z.string() });
    expect(Object.keys(inputsOf(renamed)).sort()).not.toEqual(expectedNames(redeliver));
  });
});
