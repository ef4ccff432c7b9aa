import { z } from "zod";
import { errorEnvelope } from "./common-schemas";
import type { Authentication, OperationSpec } from "./operation-spec";

type JsonSchema = Record<string, unknown>;

const securitySchemes = {
  apiKey: {
    type: "http",
    scheme: "bearer",
    description: "Organization API key: `Authorization: Bearer sk_live_…`",
  },
  session: {
    type: "apiKey",
    in: "cookie",
    name: "next-auth.session-token",
    description: "Dashboard sign-in",
  },
  oauth: { type: "http", scheme: "bearer", description: "OAuth 2.1 access token (remote MCP)" },
  agentToken: {
    type: "http",
    scheme: "bearer",
    description:
      "Agent credential `sk_agent_…` (accepted wherever an API key is); on the setup endpoints, their one-time tokens",
  },
} as const;

/**
 * Builds the OpenAPI 3.1 document from the operations' zod schemas: the same schemas the routes
 * parse with, so the document cannot drift from what the API accepts.
 */
export function buildOpenApiDocument(input: {
  title: string;
  version: string;
  serverUrl: string;
  operations: OperationSpec[];
}) {
  const components: Record<string, JsonSchema> = {};

  // zod writes shared (id'd) schemas under a local $defs; the document keeps them in components.
  const toSchema = (schema: z.ZodType, io: "input" | "output"): JsonSchema => {
    const {
      $schema: _ignored,
      $defs,
      ...rest
    } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
    for (const [id, definition] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>)) {
      components[id] = relink(definition);
    }
    return relink(rest);
  };
  const relink = (schema: JsonSchema): JsonSchema =>
    JSON.parse(JSON.stringify(schema).replaceAll('"#/$defs/', '"#/components/schemas/'));

  const parameters = (location: "path" | "query" | "header", object?: z.ZodObject) =>
    Object.entries(object?.shape ?? {}).map(([name, field]) => ({
      name,
      in: location,
      required: location === "path" || !(field as z.ZodType).safeParse(undefined).success,
      schema: toSchema(field as z.ZodType, "input"),
    }));

  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of input.operations) {
    paths[operation.path] ??= {};
    paths[operation.path][operation.method] = {
      operationId: operation.operationId,
      summary: operation.summary,
      ...(operation.description ? { description: operation.description } : {}),
      tags: operation.tags,
      security: operation.auth.includes("none")
        ? []
        : operation.auth.map((scheme: Authentication) => ({ [scheme]: [] })),
      parameters: [
        ...parameters("path", operation.params),
        ...parameters("query", operation.query),
        ...parameters("header", operation.headers),
      ],
      ...(operation.body
        ? {
            requestBody: {
              required: true,
              content: { "application/json": { schema: toSchema(operation.body, "input") } },
            },
          }
        : {}),
      responses: Object.fromEntries(
        Object.entries(operation.responses).map(([status, response]) => [
          status,
          {
            description: response.description,
            ...(response.schema
              ? { content: { "application/json": { schema: toSchema(response.schema, "output") } } }
              : {}),
          },
        ]),
      ),
    };
  }
  components.Error = toSchema(errorEnvelope, "output");

  return {
    openapi: "3.1.0",
    info: {
      title: input.title,
      version: input.version,
      description:
        "Hosted crypto checkout: create Checkout Sessions, send buyers to the hosted page, fulfil on the signed payment.confirmed webhook. Errors use one envelope; unknown request fields are rejected.",
    },
    servers: [{ url: input.serverUrl }],
    paths,
    components: { schemas: components, securitySchemes },
  };
}
