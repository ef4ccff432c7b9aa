// Each MCP tool that does what a REST operation does returns that operation's object, in the
// same words: both schemas become JSON Schema the way the OpenAPI document makes them, and must be
// equal. Every tool is its operation's contract's door (packages/agent/src/contracts) or says why
// it has no REST twin.
import { type ToolDefinition, toolByName, tools } from "crypto-checkout-agent/catalog";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { allOperations } from "@/app/api/openapi.json/openapi-document";

/** JSON Schema as lib/openapi/build-openapi-document.ts makes a response's. */
const jsonSchema = (schema: z.ZodType) => z.toJSONSchema(schema, { io: "output", unrepresentable: "any" });

/** The data a REST operation's success answer carries (inside `{success, data}` under /api/private). */
function restResult(route: string): z.ZodType {
  const operation = allOperations.find((candidate) => `${candidate.method} ${candidate.path}` === route);
  if (!operation) throw new Error(`no REST operation ${route}`);
  const [, success] = Object.entries(operation.responses).find(([status]) => status.startsWith("2")) ?? [];
  if (!success?.schema) throw new Error(`${route} documents no success body`);
  const { schema } = success;
  return schema instanceof z.ZodObject && "success" in schema.shape && "data" in schema.shape
    ? (schema.shape.data as z.ZodType)
    : schema;
}

const restTwins = (tools as readonly ToolDefinition[]).flatMap(({ name, contract }) =>
  contract ? [[name, `${contract.method} ${contract.path}`] as const] : [],
);

describe("MCP tools' output schemas", () => {
  it("every tool names its REST twin or why it has none", () => {
    for (const tool of tools as readonly ToolDefinition[]) {
      expect({ tool: tool.name, twinOrReason: Boolean(tool.contract) !== Boolean(tool.withoutTwin) }).toEqual(
        {
          tool: tool.name,
          twinOrReason: true,
        },
      );
    }
    expect(restTwins.length).toBeGreaterThan(20);
  });

  it.each(restTwins)("%s returns what %s does", (name, route) => {
    const tool = toolByName.get(name);
    expect(tool).toBeDefined();
    expect(jsonSchema(tool?.outputSchema as z.ZodType)).toEqual(jsonSchema(restResult(route)));
  });

  it("tells a hand-copied object from the REST one", () => {
    const organization = restResult("get /api/private/organization/current") as z.ZodObject;
    const copy = z.object(organization.shape).omit({ apiVersion: true, subscriptionGraceDays: true });
    expect(jsonSchema(copy)).not.toEqual(jsonSchema(organization));
    expect(jsonSchema(z.object(organization.shape))).not.toEqual(jsonSchema(organization));
  });
});
