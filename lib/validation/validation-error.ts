import { type ArgumentProblem, invalidArguments, parseArguments } from "crypto-checkout-agent/catalog";
import type { z } from "zod";
import { invalidRequest, type ServiceError } from "../errors";

// Bad input is refused in the agent kit's words (its catalog/arguments.ts), which the MCP servers
// answer bad tool arguments with too, so every door names the same problem the same way.

const refusal = (problem: ArgumentProblem) => invalidRequest(problem.code, problem.message, problem.param);

/** The first problem zod found, as a 400 naming the parameter (dotted path) and what is wrong. */
export function validationError(error: z.ZodError, input: unknown): ServiceError {
  return refusal(invalidArguments(error, input));
}

/**
 * Parses with the schema or throws the 400 above. Text no schema should have to think about (NUL,
 * lone surrogates) and absurd nesting are refused first, whatever the schema accepts.
 */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = parseArguments(schema, value);
  if (!parsed.success) throw refusal(parsed.problem);
  return parsed.data;
}
