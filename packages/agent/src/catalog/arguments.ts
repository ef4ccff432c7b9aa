import type { z } from "zod";

// How arguments are refused, in the words of the REST error envelope: the first problem, naming
// the parameter by its dotted path. The REST routes (lib/validation) and both MCP servers refuse
// with these, so a bad call gets the same code, message and parameter through every door.

export type ArgumentProblem = { code: string; message: string; param?: string };

/**
 * NUL, which PostgreSQL cannot store in text (error 22021), and a UTF-16 surrogate without its
 * pair, which is not Unicode text at all. In `u` mode a well-formed pair is one code point, so
 * only a lone surrogate matches `\p{Cs}`.
 */
const unstorable = /[\0\p{Cs}]/u;

/** How deeply an input may nest: deeper JSON is refused before anything walks it recursively. */
export const maxInputDepth = 32;

export function isStorableText(value: string): boolean {
  return !unstorable.test(value);
}

const unstorableMessage = "must not contain NUL characters or unpaired UTF-16 surrogates";

function unstorableAt(path: readonly (string | number)[]): ArgumentProblem {
  // A bad key is named by the printable part of its path; its own characters are the problem.
  const param = path.map((part) => String(part).replace(/[\0\p{Cs}]/gu, "\uFFFD")).join(".");
  return param
    ? { code: "parameter_invalid", message: `Invalid ${param}: ${unstorableMessage}.`, param }
    : { code: "parameter_invalid", message: `The input ${unstorableMessage}.` };
}

/**
 * A field (dotted path under `prefix`) whose key or text PostgreSQL could not store, or an input
 * nesting deeper than maxInputDepth; undefined when there is none. Walks with its own stack, so no
 * input is deep enough to overflow the call stack.
 */
export function unstorableInput(
  input: unknown,
  prefix: readonly (string | number)[] = [],
): ArgumentProblem | undefined {
  const pending: { value: unknown; path: readonly (string | number)[] }[] = [{ value: input, path: prefix }];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { value, path } = next;
    if (typeof value === "string") {
      if (!isStorableText(value)) return unstorableAt(path);
      continue;
    }
    if (value === null || typeof value !== "object") continue;
    if (path.length - prefix.length >= maxInputDepth) {
      return { code: "input_too_deep", message: `The input nests more than ${maxInputDepth} levels deep.` };
    }
    for (const [key, item] of Object.entries(value)) {
      const itemPath = [...path, Array.isArray(value) ? Number(key) : key];
      if (!isStorableText(key)) return unstorableAt(itemPath);
      pending.push({ value: item, path: itemPath });
    }
  }
  return undefined;
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** The first problem zod found: an unknown, a missing or an invalid parameter. */
export function invalidArguments(error: z.ZodError, input: unknown): ArgumentProblem {
  const issue = error.issues[0];
  if (issue.code === "unrecognized_keys") {
    const param = [...issue.path, issue.keys[0]].join(".");
    return { code: "parameter_unknown", message: `Received unknown parameter: ${param}.`, param };
  }
  const param = issue.path.join(".") || undefined;
  const missing = issue.code !== "custom" && valueAt(input, issue.path) === undefined;
  if (missing && param) {
    return { code: "parameter_missing", message: `Missing required parameter: ${param}.`, param };
  }
  return {
    code: "parameter_invalid",
    message: param ? `Invalid ${param}: ${issue.message}` : issue.message,
    param,
  };
}

/**
 * The input parsed with the schema, or the first problem with it. Text no schema should have to
 * think about (NUL, lone surrogates) and absurd nesting are refused first, whatever the schema accepts.
 */
export function parseArguments<S extends z.ZodType>(
  schema: S,
  input: unknown,
): { success: true; data: z.output<S> } | { success: false; problem: ArgumentProblem } {
  const unstorableProblem = unstorableInput(input);
  if (unstorableProblem) return { success: false, problem: unstorableProblem };
  const result = schema.safeParse(input);
  return result.success
    ? { success: true, data: result.data }
    : { success: false, problem: invalidArguments(result.error, input) };
}
