import { appendFileSync } from "node:fs";
import type { ErrorObject, ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { openApiDocument } from "../../app/api/openapi.json/openapi-document";
import { matchRoute } from "./app-routes";

// The contract check behind callRoute and serveRoute: every answer of a documented operation must
// match the OpenAPI document (status listed, body valid against its schema), and a request the
// API accepted must be one the document accepts too. The document is compiled with Ajv (JSON
// Schema 2020-12, the dialect of OpenAPI 3.1) exactly as it is served.

type Json = Record<string, unknown>;
type Parameter = { name: string; in: string; required?: boolean; schema: Json };
export type Operation = {
  operationId: string;
  security: Record<string, string[]>[];
  parameters?: (Parameter | { $ref: string })[];
  requestBody?: { content: { "application/json": { schema: Json } } };
  responses: Record<string, { content?: Record<string, { schema: Json }> }>;
};

export type Exchange = {
  method: string;
  url: URL;
  requestHeaders: Headers;
  requestBody?: string;
  status: number;
  responseBody: string;
  /** The answer's Content-Type: a documented text format (a CSV report) is not read as JSON. */
  responseContentType?: string | null;
};

/** Where callRoute and serveRoute record the operations they saw (set by `npm test`). */
export const trafficFileVariable = "OPENAPI_TRAFFIC_FILE";

let compiled: ReturnType<typeof compile> | undefined;

function listOperations(document: { paths: Record<string, Record<string, Operation>> }) {
  return Object.entries(document.paths).flatMap(([template, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      template,
      method: method.toUpperCase(),
      operation,
    })),
  );
}

/** Every operation of the document as served: its path template, method and OpenAPI object. */
export function documentedOperations() {
  compiled ??= compile();
  return compiled.operations;
}

function compile() {
  const document = JSON.parse(JSON.stringify(openApiDocument()));
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  // Parameters arrive as strings; their schemas describe the values they stand for.
  const coercing = new Ajv2020({ strict: false, allErrors: true, coerceTypes: true });
  addFormats(coercing);
  ajv.addSchema(document, "openapi.json");
  coercing.addSchema(document, "openapi.json");
  const validators = new Map<string, ValidateFunction>();
  const validatorAt = (pointer: string, engine = ajv) => {
    const key = `${engine === ajv ? "" : "coerce:"}${pointer}`;
    let validate = validators.get(key);
    if (!validate) {
      validate = engine.compile({ $ref: `openapi.json#${pointer}` });
      validators.set(key, validate);
    }
    return validate;
  };
  const operations = listOperations(document);
  const resolveParameter = (parameter: Parameter | { $ref: string }): Parameter =>
    "$ref" in parameter
      ? document.components.parameters[parameter.$ref.split("/").at(-1) as string]
      : parameter;
  return { document, operations, validatorAt, coercing, resolveParameter };
}

const pointerSegment = (segment: string) => segment.replaceAll("~", "~0").replaceAll("/", "~1");
const explain = (errors: ErrorObject[] | null | undefined) =>
  (errors ?? []).map((error) => `${error.instancePath || "(root)"} ${error.message}`).join("; ");

function parseJson(text: string | undefined): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: text ? JSON.parse(text) : undefined };
  } catch {
    return { ok: false };
  }
}

/**
 * What in one request and its answer disagrees with the document (empty when all agrees, or when
 * the path is not a documented operation). Records the operation and status it saw.
 */
export function contractProblems(exchange: Exchange): string[] {
  compiled ??= compile();
  const { operations, validatorAt, coercing, resolveParameter } = compiled;
  const method = exchange.method.toUpperCase();
  const match = matchRoute(
    operations.filter((candidate) => candidate.method === method),
    exchange.url.pathname,
  );
  if (!match) return [];
  const { operation, template } = match.route;
  const where = `${method} ${template} → ${exchange.status}`;
  const trafficFile = process.env[trafficFileVariable];
  if (trafficFile) {
    appendFileSync(
      trafficFile,
      `${JSON.stringify({ operationId: operation.operationId, status: exchange.status })}\n`,
    );
  }

  const problems: string[] = [];
  const base = `/paths/${pointerSegment(template)}/${method.toLowerCase()}`;
  const response = operation.responses[String(exchange.status)];
  if (!response) {
    problems.push(`${where}: the document lists no ${exchange.status} answer for ${operation.operationId}`);
  } else if (response.content) {
    const mediaType = exchange.responseContentType?.split(";")[0].trim() ?? "application/json";
    const textAnswer = mediaType !== "application/json" && exchange.status < 300;
    if (textAnswer && !response.content[mediaType]) {
      problems.push(`${where}: the document lists no ${mediaType} answer for ${operation.operationId}`);
    }
    const body = parseJson(exchange.responseBody);
    const validate = validatorAt(
      `${base}/responses/${exchange.status}/content/${pointerSegment("application/json")}/schema`,
    );
    if (textAnswer) {
      // Its text is the test's to check (a CSV report's columns and cells).
    } else if (!body.ok) problems.push(`${where}: the answer is not JSON`);
    else if (!validate(body.value))
      problems.push(`${where}: the answer does not match the document: ${explain(validate.errors)}`);
  }

  // A request the API accepted must be valid by the document, or generated clients refuse it.
  if (exchange.status < 300) {
    if (operation.requestBody && exchange.requestBody !== undefined) {
      const body = parseJson(exchange.requestBody);
      const validate = validatorAt(
        `${base}/requestBody/content/${pointerSegment("application/json")}/schema`,
      );
      if (body.ok && !validate(body.value)) {
        problems.push(`${where}: the API accepted a body the document rejects: ${explain(validate.errors)}`);
      }
    }
    for (const [index, listed] of (operation.parameters ?? []).entries()) {
      const parameter = resolveParameter(listed);
      const pointer =
        "$ref" in listed ? `${listed.$ref.slice(1)}/schema` : `${base}/parameters/${index}/schema`;
      const value =
        parameter.in === "query"
          ? exchange.url.searchParams.get(parameter.name)
          : parameter.in === "header"
            ? exchange.requestHeaders.get(parameter.name)
            : null;
      if (parameter.in === "path") continue;
      if (value === null) {
        if (parameter.required) {
          problems.push(
            `${where}: the API accepted a request without required ${parameter.in} parameter ${parameter.name}`,
          );
        }
        continue;
      }
      const validate = validatorAt(pointer, coercing);
      if (!validate(value)) {
        problems.push(
          `${where}: the API accepted ${parameter.in} parameter ${parameter.name}=${JSON.stringify(value)}, which the document rejects: ${explain(validate.errors)}`,
        );
      }
    }
  }
  return problems;
}

/** Throws (failing the calling test) when the exchange disagrees with the document. */
export function assertContract(exchange: Exchange) {
  const problems = contractProblems(exchange);
  if (problems.length) throw new Error(`OpenAPI contract broken:\n  ${problems.join("\n  ")}`);
}
