import { z } from "zod";
import type { ToolDefinition } from "./tools";

// A tool as tools/list shows it, built one way for the remote and the local server so that
// both list identical schemas (JSON Schema draft 7 of the input side of each zod schema).

type JsonSchemaObject = { type: "object"; [key: string]: unknown };
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * The schema with every `#/definitions/…` reference replaced by its definition. The public
 * objects carry their OpenAPI component ids (../shapes), which zod turns into definitions; a tool's
 * schema is read on its own and MCP wants an object schema at its top, so tools list them inline.
 */
function inlined(node: Json, definitions: Record<string, Json>): Json {
  if (Array.isArray(node)) return node.map((item) => inlined(item, definitions));
  if (node === null || typeof node !== "object") return node;
  const { $ref, ...rest } = node;
  const resolved = Object.fromEntries(
    Object.entries(rest).map(([key, value]) => [key, inlined(value, definitions)]),
  );
  if (typeof $ref !== "string") return resolved;
  const target = inlined(definitions[$ref.replace("#/definitions/", "")], definitions);
  return { ...(target as Record<string, Json>), ...resolved };
}

const jsonSchema = (schema: z.ZodType) => {
  const { definitions, ...root } = z.toJSONSchema(schema, { target: "draft-7", io: "input" }) as Record<
    string,
    Json
  >;
  return inlined(root, (definitions ?? {}) as Record<string, Json>) as JsonSchemaObject;
};

export function describeTool(tool: ToolDefinition) {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: jsonSchema(tool.inputSchema),
    outputSchema: jsonSchema(tool.outputSchema),
    annotations: { title: tool.title, ...tool.annotations },
  };
}
