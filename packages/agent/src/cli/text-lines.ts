import type { Kit } from "../context";
import type { Json } from "./arguments";

/** A `label: value` line of text mode, values aligned. */
export function line(label: string, value: unknown) {
  return `${`${label}:`.padEnd(16)} ${value ?? "-"}`;
}

/** The hosted pay address of a session or paylink: the service's, else `{pay_url}/{id}`. */
export function payUrl(kit: Kit, object: Json) {
  return object.url ?? (kit.settings.payBaseUrl ? `${kit.settings.payBaseUrl}/${object.id}` : undefined);
}

/** A list page in text mode: a line a row, then where the page stands. */
export function pageLines(page: Json, rowLine: (row: Json) => string) {
  const rows = page.data as Json[];
  return [...rows.map(rowLine), `${rows.length} of ${page.total} (page ${page.page})`];
}

/** An answer no command words itself: a list page a row a line, else a line a field (nested ones in --format json). */
export function answerLines(answer: Json): string[] {
  const scalars = (object: Json) =>
    Object.entries(object).filter(([, value]) => value === null || typeof value !== "object");
  if (answer.object === "list" && Array.isArray(answer.data)) {
    return pageLines(answer, (row) =>
      scalars(row)
        .map(([, value]) => value ?? "-")
        .join("  "),
    );
  }
  return scalars(answer).map(([name, value]) => line(name, value));
}
