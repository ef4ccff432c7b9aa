import type { z } from "zod";

// Each domain describes its HTTP operations with the same zod schemas its routes parse with, in
// `lib/<domain>/openapi.ts`; lib/openapi builds the OpenAPI 3.1 document from all of them.

export type Authentication = "apiKey" | "none" | "session" | "agentToken";

export type OperationSpec = {
  method: "get" | "post" | "put" | "patch" | "delete";
  /** OpenAPI path template, e.g. /api/checkout-sessions/{id} */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  auth: Authentication[];
  params?: z.ZodObject;
  query?: z.ZodObject;
  headers?: z.ZodObject;
  body?: z.ZodType;
  /** The body may be left out (an empty request parses as `{}`). */
  bodyOptional?: boolean;
  /** An example request body (when the schema's own examples do not make a valid one). */
  bodyExample?: unknown;
  responses: Record<number, { description: string; schema?: z.ZodType; example?: unknown }>;
};
