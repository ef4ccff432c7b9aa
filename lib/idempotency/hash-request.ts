import { hash } from "node:crypto";

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}

/** What "the same request" means: the same JSON body, whatever the key order or spacing. */
export function hashRequest(body: unknown): string {
  return hash("sha256", JSON.stringify(canonical(body)));
}
