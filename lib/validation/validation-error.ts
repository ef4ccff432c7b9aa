import type { z } from "zod";
import { invalidRequest, type ServiceError } from "../errors";
import { assertStorableInput } from "./storable-text";

/** The first problem zod found, as a 400 naming the parameter (dotted path) and what is wrong. */
export function validationError(error: z.ZodError, input: unknown): ServiceError {
  const issue = error.issues[0];
  if (issue.code === "unrecognized_keys") {
    const key = issue.keys[0];
    const param = [...issue.path, key].join(".");
    return invalidRequest("parameter_unknown", `Received unknown parameter: ${param}.`, param);
  }
  const param = issue.path.join(".") || undefined;
  const missing = issue.code !== "custom" && valueAt(input, issue.path) === undefined;
  if (missing && param) {
    return invalidRequest("parameter_missing", `Missing required parameter: ${param}.`, param);
  }
  return invalidRequest(
    "parameter_invalid",
    param ? `Invalid ${param}: ${issue.message}` : issue.message,
    param,
  );
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/**
 * Parses with the schema or throws the 400 above. Text no schema should have to think about (NUL,
 * lone surrogates) and absurd nesting are refused first, whatever the schema accepts.
 */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  assertStorableInput(value);
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(result.error, value);
  return result.data;
}
