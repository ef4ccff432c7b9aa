import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAppServer } from "./app-server";

// The server in front of Next.js over real HTTP, with a stand-in for Next.js that answers as it
// does where it is not deliberate (a bare 405, a 500 for a server action it cannot decode): the
// server's own answers replace those, refuse undecodable targets before Next.js sees them, and
// bound how long a client may take.

const root = path.resolve(import.meta.dirname, "..");
let server: ReturnType<typeof createAppServer>;
let base: string;
let nextSaw: string[] = [];

/** What Next.js answers: the status a test names in `x-next-status`, with a body of its own. */
function standInForNext(request: IncomingMessage, response: ServerResponse) {
  nextSaw.push(`${request.method} ${request.url}`);
  request.resume();
  request.on("end", () => {
    const status = Number(request.headers["x-next-status"] ?? 200);
    response.statusCode = status;
    response.setHeader("content-type", "text/html");
    if (status === 405) response.end();
    else response.end(`next's own ${status} page: Error at /work/app/x.ts:1`);
  });
}

beforeAll(async () => {
  server = createAppServer({
    root,
    handle: standInForNext,
    isStopping: () => false,
    bounds: { headersMs: 1_000, requestMs: 2_000 },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("a target that cannot be decoded is a 400 before Next.js", () => {
  it.each([
    ["/api/checkout-sessions/%ff", "json", "path_undecodable", "path"],
    ["/api/private/refunds/%F0", "json", "path_undecodable", "path"],
    ["/api/x402/paylinks/%E0%A4%A", "json", "path_undecodable", "path"],
    ["/api/checkout-sessions/%00", "json", "parameter_invalid", "path"],
    ["/api/health?client_id=%00", "json", "parameter_invalid", "client_id"],
    ["/api/health?rows=%zz", "json", "path_undecodable", "path"],
    ["/pay/%", "page", "path_undecodable", "path"],
    ["/pay/%zz", "page", "path_undecodable", "path"],
    ["/refund/%ED%A0%80", "page", "path_undecodable", "path"],
    ["/oauth/authorize?client_id=%00", "page", "parameter_invalid", "client_id"],
  ])("%s (%s)", async (target, kind, code, param) => {
    nextSaw = [];
    const response = await fetch(`${base}${target}`);
    expect(response.status).toBe(400);
    expect(response.headers.get("x-request-id")).toMatch(/^req_\w+$/);
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    if (kind === "json") {
      const body = await response.json();
      expect(body.error).toMatchObject({ type: "invalid_request_error", code, param });
      expect(body.success).toBe(target.startsWith("/api/private/") ? false : undefined);
    } else {
      expect(response.headers.get("content-type")).toMatch(/^text\/html/);
      expect(await response.text()).toContain("<h1>Bad request</h1>");
    }
    expect(nextSaw).toEqual([]);
  });

  it("passes a readable target on to Next.js", async () => {
    nextSaw = [];
    expect((await fetch(`${base}/pay/pl_%41?x=%C3%A9+y`)).status).toBe(200);
    expect(nextSaw).toEqual(["GET /pay/pl_%41?x=%C3%A9+y"]);
  });
});

describe("Next.js's answers that are not deliberate are replaced", () => {
  const next = (status: number) => ({ "x-next-status": String(status) });
  it.each([
    ["PUT", "/api/checkout-sessions", "OPTIONS, POST"],
    ["DELETE", "/api/x402/paylinks/pl_1", "GET, HEAD, OPTIONS"],
    ["POST", "/api/private/refunds/rf_1", "GET, HEAD, OPTIONS"],
    ["PATCH", "/oauth/token", "OPTIONS, POST"],
  ])("%s %s: 405 with the envelope and Allow", async (method, target, allow) => {
    const response = await fetch(`${base}${target}`, { method, headers: next(405) });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe(allow);
    expect(response.headers.get("x-request-id")).toMatch(/^req_\w+$/);
    expect((await response.json()).error).toMatchObject({ code: "method_not_allowed" });
  });

  it.each([
    ["a server action", { "next-action": "0".repeat(40), "content-type": "text/plain" }],
    ["a multipart form", { "content-type": "multipart/form-data; boundary=zz" }],
    ["a url-encoded form", { "content-type": "application/x-www-form-urlencoded" }],
  ])("a 500 for %s posted to a page is a 400, with none of Next.js's body", async (_name, headers) => {
    const response = await fetch(`${base}/refund/rt_1`, {
      method: "POST",
      headers: { ...headers, ...next(500) },
      body: "garbage{{".repeat(1000),
    });
    expect(response.status).toBe(400);
    const text = await response.text();
    expect(text).toContain("could not be read");
    expect(text).not.toContain("next's own");
  });

  it.each([
    [
      "a 500 of an API route",
      "POST",
      "/api/checkout-sessions",
      { "content-type": "multipart/form-data" },
      500,
    ],
    ["a page's plain GET", "GET", "/refund/rt_1", {}, 500],
    ["a page's 405", "PUT", "/refund/rt_1", {}, 405],
  ])("leaves %s alone", async (_name, method, target, headers, status) => {
    const response = await fetch(`${base}${target}`, { method, headers: { ...headers, ...next(status) } });
    expect(response.status).toBe(status);
  });
});

describe("every request is answered or closed within a bound", () => {
  /** Writes `sent` and waits for the server's answer or close; resolves with what came back. */
  const stall = (sent: string) =>
    new Promise<{ answer: string; ms: number }>((resolve) => {
      const started = performance.now();
      const socket = connect((server.address() as AddressInfo).port, "127.0.0.1", () => socket.write(sent));
      let answer = "";
      socket.on("data", (chunk) => {
        answer += chunk.toString();
      });
      socket.on("close", () => resolve({ answer, ms: performance.now() - started }));
      socket.on("error", () => {});
    });

  it.each([
    ["headers that never end", "GET /api/health HTTP/1.1\r\nHost: x\r\n"],
    [
      "a chunked body that stops",
      "POST /api/checkout-sessions HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n",
    ],
    [
      "a body shorter than its Content-Length",
      "POST /api/checkout-sessions HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{}",
    ],
  ])(
    "%s: 408 and closed",
    async (_name, sent) => {
      const { answer, ms } = await stall(sent);
      expect(answer).toMatch(/^HTTP\/1\.1 408/);
      // The bound (2 s for the whole request) plus the check's interval (1 s) and a loaded machine.
      expect(ms).toBeLessThan(8_000);
    },
    15_000,
  );
});
