import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guardedFetch, OutboundRequestError } from "./guarded-fetch";

const requests: { method?: string; url?: string; body: string }[] = [];
const routes: Record<string, (request: IncomingMessage, response: ServerResponse) => void> = {
  "/doc": (_request, response) => {
    response.writeHead(200, { "content-type": "application/json", "x-extra": "1" });
    response.end('{"client_id":"https://app.example/cimd"}');
  },
  "/big": (_request, response) => {
    response.writeHead(200);
    response.end("y".repeat(10_000));
  },
  "/slow": (_request, response) => {
    setTimeout(() => response.destroyed || response.writeHead(200).end("late"), 1_000);
  },
  "/redirect": (_request, response) => {
    response.writeHead(302, { location: "/doc" }).end();
  },
};
const server = createServer((request, response) => {
  let body = "";
  request.on("data", (chunk) => (body += chunk));
  request.on("end", () => {
    requests.push({ method: request.method, url: request.url, body });
    const route = routes[request.url ?? ""];
    if (route) route(request, response);
    else response.writeHead(404).end();
  });
});
let base = "";
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

// Generous: a loopback answer on a busy CI machine can take longer than half a second.
const local = { timeoutMs: 5_000, maxBodyBytes: 1024, allowPrivateAddresses: true };

describe("guardedFetch", () => {
  it("GETs a document: status, headers and the whole body under the cap", async () => {
    const response = await guardedFetch(`${base}/doc`, local);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(JSON.parse(response.body.toString("utf8"))).toEqual({ client_id: "https://app.example/cimd" });
    expect(response.truncated).toBe(false);
  });

  it("POSTs a body with headers", async () => {
    await guardedFetch(`${base}/doc`, {
      ...local,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"a":1}',
    });
    expect(requests.at(-1)).toEqual({ method: "POST", url: "/doc", body: '{"a":1}' });
  });

  it("keeps at most maxBodyBytes", async () => {
    const response = await guardedFetch(`${base}/big`, { ...local, maxBodyBytes: 100 });
    expect(response.body.toString()).toBe("y".repeat(100));
    expect(response.truncated).toBe(true);
  });

  it("answers a redirect as it is, without following it", async () => {
    const before = requests.length;
    const response = await guardedFetch(`${base}/redirect`, local);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/doc");
    expect(requests.length - before).toBe(1);
  });

  it.each<[string, () => Promise<unknown>, string, RegExp]>([
    [
      "too slow",
      () => guardedFetch(`${base}/slow`, { ...local, timeoutMs: 200 }),
      "timeout",
      /^timed out after 200 ms$/,
    ],
    [
      "refused",
      () => guardedFetch("http://127.0.0.1:1/", local),
      "network",
      /^connection failed: ECONNREFUSED$/,
    ],
    [
      "a private address literal",
      () => guardedFetch(`${base}/doc`, { ...local, allowPrivateAddresses: false }),
      "blocked",
      /^blocked: the host is a private address$/,
    ],
    [
      "a name resolving to loopback",
      () =>
        guardedFetch(`http://localhost:${new URL(base).port}/doc`, {
          ...local,
          allowPrivateAddresses: false,
        }),
      "blocked",
      /^blocked: the host resolves to a private address$/,
    ],
    ["not http(s)", () => guardedFetch("file:///etc/passwd", local), "blocked", /^only http\(s\) URLs/],
  ])("fails with a reason when %s", async (_label, call, reason, message) => {
    const error = await call().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OutboundRequestError);
    expect(error).toMatchObject({ reason, message: expect.stringMatching(message) });
  });
});
