import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { NextRequest } from "next/server";

type RouteHandler = (
  request: NextRequest,
  route: { params: Promise<Record<string, never>> },
) => Promise<Response>;

/**
 * Serves App Router route handlers (one per method) on a real HTTP port on 127.0.0.1, so official
 * clients can talk to them over the wire. Requests reach the handler with the Host of the
 * configured base URL, as the app's reverse proxy forwards it.
 */
export async function serveRoute(handlers: Partial<Record<string, RouteHandler>>, baseUrl: string) {
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", async () => {
      const handler = handlers[incoming.method ?? "GET"];
      if (!handler) {
        outgoing.writeHead(405).end();
        return;
      }
      const headers = new Headers();
      for (const [name, value] of Object.entries(incoming.headers)) {
        if (typeof value === "string") headers.set(name, value);
      }
      headers.set("host", new URL(baseUrl).host);
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      const response = await handler(
        new NextRequest(new URL(incoming.url ?? "/", baseUrl), {
          method: incoming.method,
          headers,
          body,
        }),
        { params: Promise.resolve({}) },
      );
      outgoing.writeHead(response.status, Object.fromEntries(response.headers));
      outgoing.end(Buffer.from(await response.arrayBuffer()));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
