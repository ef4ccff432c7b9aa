import { z } from "zod";
import type { ToolDefinition } from "./tools";

// A tool as tools/list shows it, built one way for the remote and the local server so that
// both list identical schemas (JSON Schema draft 7 of the input side of each zod schema).

type JsonSchemaObject = { type: "object"; [key: string]: unknown };

const jsonSchema = (schema: z.ZodType) =>
  z.toJSONSchema(schema, { target: "draft-7", io: "input" }) as JsonSchemaObject;

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
