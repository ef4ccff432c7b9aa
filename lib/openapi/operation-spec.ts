import type { Contract } from "crypto-checkout-agent/contracts";
import type { z } from "zod";
import { privateEnvelope } from "./common-schemas";

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
  responses: Record<
    number,
    { description: string; schema?: z.ZodType; example?: unknown; text?: TextContent }
  >;
  /** Specification extensions of the operation (`x-…`), e.g. MPP's `x-payment-info`. */
  extensions?: Record<`x-${string}`, unknown>;
};

/** An answer in a text format besides JSON (a CSV report): its media type and an example. */
export type TextContent = { mediaType: string; example: string };

/**
 * An operation of the document whose route, operationId and success answer come from its contract
 * (crypto-checkout-agent/contracts): the tools, the kit and the authority table read the same one.
 */
export function contractOperation(
  contract: Contract,
  spec: Omit<OperationSpec, "method" | "path" | "operationId"> & {
    /** What the success answer is, e.g. "The refund". */
    result: string;
    /** The success answer in a text format too (a report's CSV), chosen by a query parameter. */
    resultText?: TextContent;
  },
): OperationSpec {
  const { result, resultText, responses, ...rest } = spec;
  const data = contract.path.startsWith("/api/private/") ? privateEnvelope(contract.result) : contract.result;
  return {
    method: contract.method,
    path: contract.path,
    operationId: contract.operationId,
    ...rest,
    responses: {
      [contract.status ?? 200]: { description: result, schema: data, text: resultText },
      ...responses,
    },
  };
}
