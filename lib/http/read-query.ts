import type { z } from "zod";
import { parseOrThrow } from "../validation/validation-error";

/** Parses the query string with a schema from lib; a repeated parameter counts once (the last). */
export function readQuery<S extends z.ZodType>(request: Request, schema: S): z.output<S> {
  return parseOrThrow(schema, Object.fromEntries(new URL(request.url).searchParams));
}
