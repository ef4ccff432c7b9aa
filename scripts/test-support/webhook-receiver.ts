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
  // Delayed answers not yet written, and whether delays still apply (see answerDelayedNow).
  const delayed = new Set<() => void>();
  // The timers of delayed answers still to be written, so that hold() can stop them.
  const timers = new Map<ReceivedRequest, NodeJS.Timeout>();
  let delaying = true;
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
      const write = () => {
        delayed.delete(write);
        timers.delete(entry);
        clearTimeout(timer);
        if (response.destroyed) return;
        entry.outcome = "answered";
        response.writeHead(answer.status, answer.headers);
        response.end(answer.body ?? "");
      };
      delayed.add(write);
      const timer = setTimeout(write, delaying ? (answer.delayMs ?? 0) : 0);
      timers.set(entry, timer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    port,
    received,
    script: (...answers: ScriptedAnswer[]) => queue.push(...answers),
    /** Keeps these requests' delayed answers unwritten until answerDelayedNow. */
    hold: (requests: ReceivedRequest[]) => {
      for (const request of requests) clearTimeout(timers.get(request));
    },
    /** Writes every delayed answer now, and drops the delays of answers still to come. */
    answerDelayedNow: () => {
      delaying = false;
      for (const write of [...delayed]) write();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
