import { readdir } from "node:fs/promises";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");
const methods = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

type Handler = (request: Request, route: { params: Promise<Record<string, string>> }) => Promise<Response>;

export type AppRoute = {
  /** The OpenAPI-style path: `/api/checkout-sessions/{id}` for `app/api/checkout-sessions/[id]`. */
  template: string;
  handlers: Partial<Record<(typeof methods)[number], Handler>>;
};

/** Every route handler under app/api, read from the file system as Next.js would route them. */
export async function appRoutes(): Promise<AppRoute[]> {
  const found: AppRoute[] = [];
  const walk = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.name === "route.ts") {
        const source = await import(full);
        const template = `/${path.relative(path.join(root, "app"), path.dirname(full)).replace(/\[(\w+)\]/g, "{$1}")}`;
        const handlers = Object.fromEntries(
          methods.filter((method) => source[method]).map((method) => [method, source[method]]),
        );
        found.push({ template, handlers });
      }
    }
  };
  await walk(path.join(root, "app/api"));
  return found;
}

/** The route that serves `pathname` and its path parameters; literal segments win over `{param}`. */
export function matchRoute<R extends { template: string }>(routes: R[], pathname: string) {
  const literals = (template: string) =>
    template.split("/").filter((segment) => !segment.startsWith("{")).length;
  for (const route of [...routes].sort((a, b) => literals(b.template) - literals(a.template))) {
    const names = [...route.template.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
    const pattern = new RegExp(`^${route.template.replace(/\{\w+\}/g, "([^/]+)")}$`);
    const values = pattern.exec(pathname);
    if (values) {
      const params = Object.fromEntries(
        names.map((name, index) => [name, decodeURIComponent(values[index + 1])]),
      );
      return { route, params };
    }
  }
  return undefined;
}
