import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export type ScriptedAnswer =
  | { status: number; headers?: Record<string, string>; body?: string | Buffer; delayMs?: number }
  | { drop: true };

export type ReceivedRequest = {
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  receivedAt: Date;
  /** The sender's port, to tell which process sent it. */
  remotePort: number;
  /** "cut-off" when the sender hung up (or died) before the answer was written. */
  outcome: "pending" | "answered" | "cut-off";
};

/**
 * A real HTTP receiver on 127.0.0.1 that answers a scripted sequence (then 200s) and keeps every
 * request exactly as received, raw body included.
 */
export async function startWebhookReceiver(script: ScriptedAnswer[] = []) {
  const received: ReceivedRequest[] = [];
  const queue = [...script];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const entry: ReceivedRequest = {
        path: request.url ?? "/",
        headers: request.headers,
        rawBody: Buffer.concat(chunks).toString("utf8"),
        receivedAt: new Date(),
        remotePort: request.socket.remotePort ?? 0,
        outcome: "pending",
      };
      received.push(entry);
      response.on("close", () => {
        if (entry.outcome === "pending") entry.outcome = "cut-off";
      });
      const answer = queue.shift() ?? { status: 200, body: "ok" };
      if ("drop" in answer) {
        request.socket.destroy();
        return;
      }
      setTimeout(() => {
        if (response.destroyed) return;
        entry.outcome = "answered";
        response.writeHead(answer.status, answer.headers);
        response.end(answer.body ?? "");
      }, answer.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    port,
    received,
    script: (...answers: ScriptedAnswer[]) => queue.push(...answers),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
