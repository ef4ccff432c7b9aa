import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const methodNames = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"] as const;
const method = `(${methodNames.join("|")})`;
const declared = new RegExp(`export\\s+(?:async\\s+)?(?:const|let|function)\\s+${method}\\b`, "g");
const listed = /export\s+(?:const\s+)?\{([^}]*)\}/g;
const listedName = new RegExp(`\\b${method}\\s*(?:,|$)`, "g");

export type RouteMethods = { template: string; pattern: RegExp; literals: number; methods: string[] };

/** The methods a route file exports, read from its source: `export const GET`, `export { x as GET }`. */
export function exportedMethods(source: string): string[] {
  const found = new Set<string>();
  for (const match of source.matchAll(declared)) found.add(match[1]);
  for (const match of source.matchAll(listed)) {
    for (const name of match[1].matchAll(listedName)) found.add(name[1]);
  }
  return methodNames.filter((name) => found.has(name));
}

/**
 * Every route handler file under app/ with the methods it exports, as Next.js routes them
 * (literal segments win over parameters, a catch-all loses to both). Read once at start from the
 * source beside the build, so the server can name the allowed methods in a 405 (scripts/serve.ts),
 * which Next.js answers without a body or an Allow header.
 */
export function readRouteMethods(appDir: string): RouteMethods[] {
  const routes: RouteMethods[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === "route.ts") {
        const segments = path
          .relative(appDir, dir)
          .split(path.sep)
          // Route groups `(name)` are not part of the path.
          .filter((segment) => segment && !/^\(.*\)$/.test(segment));
        const template = `/${segments.join("/")}`;
        const pattern = segments
          .map((segment) =>
            segment.startsWith("[...")
              ? "/.+"
              : segment.startsWith("[")
                ? "/[^/]+"
                : `/${escapeRegExp(segment)}`,
          )
          .join("");
        routes.push({
          template,
          pattern: new RegExp(`^${pattern || "/"}$`),
          literals:
            segments.filter((segment) => !segment.startsWith("[")).length * 2 -
            segments.filter((segment) => segment.startsWith("[...")).length,
          methods: exportedMethods(readFileSync(full, "utf8")),
        });
      }
    }
  };
  walk(appDir);
  return routes.sort((a, b) => b.literals - a.literals);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The `Allow` value of the route that serves `pathname`, as Next.js's own OPTIONS answer lists it. */
export function allowedMethods(routes: RouteMethods[], pathname: string): string | undefined {
  const route = routes.find((candidate) => candidate.pattern.test(pathname));
  if (!route) return undefined;
  const allowed = new Set(route.methods);
  allowed.add("OPTIONS");
  if (allowed.has("GET")) allowed.add("HEAD");
  return [...allowed].sort().join(", ");
}
