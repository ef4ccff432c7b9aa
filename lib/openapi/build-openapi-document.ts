import { errorEnvelope } from "crypto-checkout-agent/shapes";
import { z } from "zod";
import { apiVersionField, apiVersionHeader } from "../api-version/api-versions";
import { type ErrorStatus, errorResponses } from "./error-responses";
import type { Authentication, OperationSpec } from "./operation-spec";

type JsonSchema = Record<string, unknown>;

const securitySchemes: Record<Exclude<Authentication, "none">, JsonSchema> = {
  apiKey: {
    type: "http",
    scheme: "bearer",
    description:
      "Organization API key `sk_live_…`, or an agent credential `sk_agent_…` (accepted wherever an API key is): `Authorization: Bearer …`",
  },
  session: {
    type: "apiKey",
    in: "cookie",
    name: "next-auth.session-token",
    description: "Dashboard sign-in (the dashboard's own pages; same origin only)",
  },
  agentToken: {
    type: "http",
    scheme: "bearer",
    description: "The one-time tokens of agent browser setup: `cc_ast_…` (status) and `cc_act_…` (check-in)",
  },
};

/**
 * The answers the route wrappers (lib/http/route.ts) give before an operation runs, so every
 * operation documents them: an unknown `X-Service-Version` (any request), a missing or bad
 * credential and too many failed ones (any authenticated operation), a read-only credential
 * refused a change (API-key operations that write), a body too large or not JSON (readJson), and
 * the database unavailable (any operation: lib/errors.ts).
 */
function wrapperResponses(operation: OperationSpec) {
  const statuses: ErrorStatus[] = [400, 503];
  if (!operation.auth.includes("none")) statuses.push(401, 429);
  if (operation.auth.includes("apiKey") && operation.method !== "get") statuses.push(403);
  if (operation.body) statuses.push(413, 415);
  return errorResponses(...statuses);
}

const ref = (kind: "schemas" | "parameters" | "headers", name: string) => ({
  $ref: `#/components/${kind}/${name}`,
});

/**
 * Builds the OpenAPI 3.1 document from the operations' zod schemas: the same schemas the routes
 * parse with, so the document cannot drift from what the API accepts.
 */
export function buildOpenApiDocument(input: {
  title: string;
  description: string;
  version: string;
  serverUrl: string;
  tags: Record<string, string>;
  operations: OperationSpec[];
}) {
  const schemas: Record<string, JsonSchema> = {};

  // zod writes shared (id'd) schemas under a local $defs; the document keeps them in components.
  // A schema that is itself id'd comes back as a bare $ref to its own definition.
  const toSchema = (schema: z.ZodType, io: "input" | "output"): JsonSchema => {
    const {
      $schema: _ignored,
      $defs,
      ...rest
    } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
    for (const [id, definition] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>)) {
      schemas[id] = relink(definition);
    }
    return relink(rest);
  };
  const relink = (schema: JsonSchema): JsonSchema =>
    JSON.parse(JSON.stringify(schema).replaceAll('"#/$defs/', '"#/components/schemas/'));

  const parameters = (location: "path" | "query" | "header", object?: z.ZodObject) =>
    Object.entries(object?.shape ?? {}).map(([name, field]) => {
      const { description, ...schema } = toSchema(field as z.ZodType, "input");
      return {
        name,
        in: location,
        required: location === "path" || !(field as z.ZodType).safeParse(undefined).success,
        ...(typeof description === "string" ? { description } : {}),
        schema,
      };
    });

  const responseHeaders = {
    [apiVersionHeader]: ref("headers", "ApiVersion"),
    "X-Request-Id": ref("headers", "RequestId"),
  };

  const paths: Record<string, Record<string, unknown>> = {};
  const usedSchemes = new Set<Authentication>();
  for (const operation of input.operations) {
    for (const scheme of operation.auth) usedSchemes.add(scheme);
    const responses: OperationSpec["responses"] = { ...wrapperResponses(operation), ...operation.responses };
    const privateApi = operation.path.startsWith("/api/private/");
    paths[operation.path] ??= {};
    paths[operation.path][operation.method] = {
      operationId: operation.operationId,
      summary: operation.summary,
      ...(operation.description ? { description: operation.description } : {}),
      tags: operation.tags,
      ...operation.extensions,
      security: operation.auth.includes("none")
        ? []
        : operation.auth.map((scheme: Authentication) => ({ [scheme]: [] })),
      parameters: [
        ...parameters("path", operation.params),
        ...parameters("query", operation.query),
        ...parameters("header", operation.headers),
        ref("parameters", "ApiVersion"),
      ],
      ...(operation.body
        ? {
            requestBody: {
              required: !operation.bodyOptional,
              content: {
                "application/json": {
                  schema: toSchema(operation.body, "input"),
                  ...(operation.bodyExample === undefined ? {} : { example: operation.bodyExample }),
                },
              },
            },
          }
        : {}),
      responses: Object.fromEntries(
        Object.entries(responses).map(([status, response]) => {
          const { schema, text } = response;
          const example =
            schema === errorEnvelope && privateApi && response.example !== undefined
              ? { success: false, ...(response.example as object) }
              : response.example;
          return [
            status,
            {
              description: response.description,
              headers: responseHeaders,
              ...(schema
                ? {
                    content: {
                      "application/json": {
                        schema: toSchema(schema, "output"),
                        ...(example === undefined ? {} : { example }),
                      },
                      ...(text
                        ? { [text.mediaType]: { schema: { type: "string" }, example: text.example } }
                        : {}),
                    },
                  }
                : {}),
            },
          ];
        }),
      ),
    };
  }

  const usedTags = new Set(input.operations.flatMap((operation) => operation.tags));
  return {
    openapi: "3.1.0",
    info: {
      title: input.title,
      version: input.version,
      description: input.description,
      license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
    },
    servers: [{ url: input.serverUrl, description: "This service (SERVICE_BASE_URL)" }],
    tags: Object.entries(input.tags)
      .filter(([name]) => usedTags.has(name))
      .map(([name, description]) => ({ name, description })),
    paths,
    components: {
      schemas,
      parameters: {
        ApiVersion: {
          name: apiVersionHeader,
          in: "header",
          required: false,
          description:
            "API version for this request (overrides the organization's pinned version). An unknown one is 400 `invalid_api_version`.",
          schema: toSchema(apiVersionField, "input"),
        },
      },
      headers: {
        ApiVersion: {
          description: "The API version this response is in",
          schema: toSchema(apiVersionField, "output"),
        },
        RequestId: { description: "This request's id (quote it to support)", schema: { type: "string" } },
      },
      securitySchemes: Object.fromEntries(
        Object.entries(securitySchemes).filter(([name]) => usedSchemes.has(name as Authentication)),
      ),
    },
  };
}
