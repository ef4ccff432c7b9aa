import type { z } from "zod";

/**
 * A dashboard page's filters from its search params. Empty fields of a GET form mean "any", and
 * a hand-edited URL that does not parse shows the unfiltered first page rather than an error.
 */
export function readPageQuery<S extends z.ZodType>(
  schema: S,
  searchParams: Record<string, string | string[] | undefined>,
): z.output<S> {
  const present = Object.fromEntries(
    Object.entries(searchParams).filter(
      (entry): entry is [string, string] => typeof entry[1] === "string" && entry[1] !== "",
    ),
  );
  const parsed = schema.safeParse(present);
  return parsed.success ? parsed.data : schema.parse({});
}
