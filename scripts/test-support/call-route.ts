import { NextRequest } from "next/server";
import { assertContract } from "./openapi-contract";

type RouteHandler<P> = (request: NextRequest, route: { params: Promise<P> }) => Promise<Response>;

export type CallOptions<P> = {
  method?: string;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string is sent as it is. */
  body?: unknown;
  params?: P;
};

/**
 * Calls an App Router route handler in-process, exactly as Next.js would, and reads the JSON
 * answer. An answer (or an accepted request) of a documented operation that disagrees with the
 * OpenAPI document fails the calling test.
 */
export async function callRoute<P = Record<string, never>>(
  handler: RouteHandler<P>,
  path: string,
  options: CallOptions<P> = {},
) {
  const headers = new Headers(options.headers);
  let body: string | undefined;
  if (typeof options.body === "string") body = options.body;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  const url = new URL(path, "http://localhost:3000");
  const method = options.method ?? (body === undefined ? "GET" : "POST");
  const request = new NextRequest(url, { method, headers, body });
  const response = await handler(request, { params: Promise.resolve((options.params ?? {}) as P) });
  const text = await response.text();
  assertContract({
    method,
    url,
    requestHeaders: headers,
    requestBody: body,
    status: response.status,
    responseBody: text,
    responseContentType: response.headers.get("content-type"),
  });
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  // biome-ignore lint/suspicious/noExplicitAny: tests assert on arbitrary JSON bodies.
  return { status: response.status, headers: response.headers, text, json: json as any };
}
