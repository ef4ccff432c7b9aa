import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { NextRequest } from "next/server";
import { createAppServer, type requestBounds } from "../app-server";
import { type AppRoute, matchRoute } from "./app-routes";
import { contractProblems } from "./openapi-contract";

type RouteHandler = (
  request: NextRequest,
  route: { params: Promise<Record<string, never>> },
) => Promise<Response>;

/**
 * Serves App Router route handlers (one per method) on a real HTTP port on 127.0.0.1, so official
 * clients can talk to them over the wire. Requests reach the handler with the Host of the
 * configured base URL, as the app's reverse proxy forwards it.
 */
export function serveRoute(handlers: Partial<Record<string, RouteHandler>>, baseUrl: string) {
  return serveRoutes(baseUrl, () => ({ handlers, params: {} }));
}

/**
 * Serves the app's API routes (see appRoutes) on a real HTTP port, routed as Next.js routes them;
 * with `bounds`, behind the server of `npm start` (scripts/app-server.ts) bounding requests so.
 */
export function serveApp(routes: AppRoute[], baseUrl: string, bounds?: typeof requestBounds) {
  return serveRoutes(
    baseUrl,
    (pathname) => {
      const found = matchRoute(routes, pathname);
      return found && { handlers: found.route.handlers, params: found.params };
    },
    bounds,
  );
}

async function serveRoutes(
  baseUrl: string,
  route: (
    pathname: string,
  ) => { handlers: Partial<Record<string, unknown>>; params: Record<string, string> } | undefined,
  bounds?: typeof requestBounds,
) {
  // The client on the other end is not the test: a broken contract fails the test at close.
  const contractBreaks: string[] = [];
  /** The route's answer to `incoming`, whose body is read whole already or streamed to the handler. */
  const answer = async (
    incoming: IncomingMessage,
    outgoing: ServerResponse,
    body: Buffer | IncomingMessage | undefined,
  ) => {
    const url = new URL(incoming.url ?? "/", baseUrl);
    const found = route(url.pathname);
    const handler = found?.handlers[incoming.method ?? "GET"] as RouteHandler | undefined;
    if (!found || !handler) {
      outgoing.writeHead(found ? 405 : 404).end();
      return;
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(incoming.headers)) {
      if (typeof value === "string") headers.set(name, value);
    }
    headers.set("host", new URL(baseUrl).host);
    const request = new NextRequest(url, {
      method: incoming.method,
      headers,
      body: body as BodyInit | undefined,
      duplex: "half",
    } as ConstructorParameters<typeof NextRequest>[1]);
    const response = await handler(request, {
      params: Promise.resolve(found.params as Record<string, never>),
    });
    const answered = Buffer.from(await response.arrayBuffer());
    contractBreaks.push(
      ...contractProblems({
        method: incoming.method ?? "GET",
        url,
        requestHeaders: headers,
        requestBody: Buffer.isBuffer(body) ? body.toString("utf8") : undefined,
        status: response.status,
        responseBody: answered.toString("utf8"),
        responseContentType: response.headers.get("content-type"),
      }),
    );
    outgoing.writeHead(response.status, Object.fromEntries(response.headers));
    outgoing.end(answered);
  };
  const handle = (incoming: IncomingMessage, outgoing: ServerResponse) => {
    // Behind the server of `npm start`, as Next.js does: the handler starts on the headers and
    // reads the body as it arrives (GET and HEAD have none).
    if (bounds) {
      void answer(
        incoming,
        outgoing,
        ["GET", "HEAD"].includes(incoming.method ?? "GET") ? undefined : incoming,
      );
      return;
    }
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on(
      "end",
      () => void answer(incoming, outgoing, chunks.length ? Buffer.concat(chunks) : undefined),
    );
  };
  const server = bounds
    ? createAppServer({
        root: path.resolve(import.meta.dirname, "../.."),
        handle,
        isStopping: () => false,
        bounds,
      })
    : createServer(handle);
  // As scripts/serve.ts: with Node's 5 s, a client reusing a connection just as the server closed
  // it got a reset (seen under load, when a test's requests were more than 5 s apart).
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (contractBreaks.length) {
        throw new Error(`OpenAPI contract broken:\n  ${contractBreaks.join("\n  ")}`);
      }
    },
  };
}
