import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export type RecordedCall = { via: string; method: string; at: number };

/**
 * A JSON-RPC pass-through on 127.0.0.1 in front of a real node: one port per named caller, so a
 * test sees which app instance asked the chain what, and when.
 */
export async function startRpcRecorder(targetUrl: string, callers: string[]) {
  const calls: RecordedCall[] = [];
  const servers: Server[] = [];
  const urls: Record<string, string> = {};
  for (const via of callers) {
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", async () => {
        const body = Buffer.concat(chunks);
        const parsed = JSON.parse(body.toString("utf8"));
        for (const call of [parsed].flat()) calls.push({ via, method: call.method, at: Date.now() });
        try {
          const answer = await fetch(targetUrl, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body,
          });
          response.writeHead(answer.status, { "content-type": "application/json" });
          response.end(Buffer.from(await answer.arrayBuffer()));
        } catch {
          response.destroy();
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    urls[via] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    servers.push(server);
  }
  return {
    urls,
    calls,
    close: () =>
      Promise.all(
        servers.map(
          (server) =>
            new Promise<void>((resolve) => {
              server.closeAllConnections();
              server.close(() => resolve());
            }),
        ),
      ),
  };
}
