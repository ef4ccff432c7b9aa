import { z } from "zod";
import type { ToolDefinition } from "./tools";

// A tool as tools/list shows it, built one way for the remote and the local server so that
// both list identical schemas (JSON Schema draft 7 of the input side of each zod schema), written
// so that every major model provider accepts them: a client that maps tool schemas onto a dialect
// with one `type` per schema (Gemini's function declarations) rejects `"type": ["string", "null"]`.

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

/** Keywords that describe a schema without constraining it: they stay outside the branches. */
const annotations = new Set(["description", "title", "default", "examples", "deprecated", "$comment"]);

/**
 * The schema with every `type` array (zod's nullable, `["string", "null"]`) written as `anyOf`
 * branches of one type each; the other constraints go into every branch, so it accepts the same.
 */
function singleTyped(node: Json): Json {
  if (Array.isArray(node)) return node.map(singleTyped);
  if (node === null || typeof node !== "object") return node;
  const converted = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, singleTyped(value)]));
  const { type, ...rest } = converted;
  if (!Array.isArray(type)) return converted;
  const outside = Object.fromEntries(Object.entries(rest).filter(([key]) => annotations.has(key)));
  const inside = Object.fromEntries(Object.entries(rest).filter(([key]) => !annotations.has(key)));
  return { ...outside, anyOf: type.map((one) => ({ ...inside, type: one })) };
}

const jsonSchema = (schema: z.ZodType) => {
  const { definitions, ...root } = z.toJSONSchema(schema, { target: "draft-7", io: "input" }) as Record<
    string,
    Json
  >;
  return singleTyped(inlined(root, (definitions ?? {}) as Record<string, Json>)) as JsonSchemaObject;
};

const described = new WeakMap<ToolDefinition, ReturnType<typeof describedTool>>();

function describedTool(tool: ToolDefinition) {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: jsonSchema(tool.inputSchema),
    outputSchema: jsonSchema(tool.outputSchema),
    annotations: { title: tool.title, ...tool.annotations },
  };
}

/** The tool's tools/list entry, made once per tool (the remote server lists on every request). */
export function describeTool(tool: ToolDefinition) {
  let entry = described.get(tool);
  if (!entry) {
    entry = describedTool(tool);
    described.set(tool, entry);
  }
  return entry;
}
