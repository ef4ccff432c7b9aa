type RouteParams = Record<string, string | string[] | undefined>;

function decoded(segment: string) {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The route's file-system template (`/api/checkout-sessions/[id]`) rebuilt from the request path
 * and its params: a metric label must name the route, never the ids in it.
 */
export function routeTemplate(pathname: string, params: RouteParams | undefined): string {
  const names = new Map<string, string>();
  for (const [key, value] of Object.entries(params ?? {})) {
    if (typeof value === "string") names.set(value, `[${key}]`);
    else if (Array.isArray(value)) for (const part of value) names.set(part, `[...${key}]`);
  }
  const segments: string[] = [];
  for (const segment of pathname.split("/")) {
    const name = names.get(decoded(segment)) ?? segment;
    // A catch-all's parts collapse into its one name.
    if (name.startsWith("[...") && segments[segments.length - 1] === name) continue;
    segments.push(name);
  }
  return segments.join("/");
}
