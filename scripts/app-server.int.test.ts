import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAppServer } from "./app-server";

// The server in front of Next.js over real HTTP, with a stand-in for Next.js that answers as it
// does where it is not deliberate (a bare 405, a 500 for a server action it cannot decode): the
// server's own answers replace those, refuse undecodable targets and wrong methods before Next.js
// sees them, answer what Node.js's parser refuses in our shape, and bound how long a client may take.

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

describe("a method the target does not take is a 405 with Allow before Next.js", () => {
  it.each([
    ["PUT", "/api/checkout-sessions", "OPTIONS, POST", "json"],
    ["DELETE", "/api/x402/paylinks/pl_1", "GET, HEAD, OPTIONS", "json"],
    ["POST", "/api/private/refunds/rf_1", "GET, HEAD, OPTIONS", "json"],
    ["PATCH", "/oauth/token", "OPTIONS, POST", "json"],
    ["PURGE", "/api/health", "GET, HEAD, OPTIONS", "json"],
    ["PROPFIND", "/api/checkout-sessions/cs_1", "GET, HEAD, OPTIONS", "json"],
    ["DELETE", "/api/inngest", "GET, HEAD, OPTIONS, POST, PUT", "json"],
    ["PUT", "/api/auth/session", "GET, HEAD, OPTIONS, POST", "json"],
    ["PUT", "/refund/rt_1", "GET, HEAD, POST", "page"],
    ["PATCH", "/login", "GET, HEAD, POST", "page"],
    ["DELETE", "/dashboard", "GET, HEAD, POST", "page"],
    ["OPTIONS", "/pay/pl_1", "GET, HEAD, POST", "page"],
    ["MKCOL", "/", "GET, HEAD, POST", "page"],
  ])("%s %s: 405, Allow %s (%s)", async (method, target, allow, kind) => {
    nextSaw = [];
    const response = await fetch(`${base}${target}`, { method });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe(allow);
    expect(response.headers.get("x-request-id")).toMatch(/^req_\w+$/);
    expect(response.headers.get("x-frame-options")).toBe("DENY");
    if (kind === "json") expect((await response.json()).error).toMatchObject({ code: "method_not_allowed" });
    else expect(await response.text()).toContain("<h1>Method not allowed</h1>");
    expect(nextSaw).toEqual([]);
  });

  it.each([
    ["GET", "/refund/rt_1"],
    ["HEAD", "/login"],
    ["POST", "/refund/rt_1"],
    ["OPTIONS", "/api/checkout-sessions"],
    ["DELETE", "/api/private/organization/webhook-endpoints/we_1"],
  ])("passes %s %s on to Next.js", async (method, target) => {
    nextSaw = [];
    expect((await fetch(`${base}${target}`, { method })).status).toBe(200);
    expect(nextSaw).toEqual([`${method} ${target}`]);
  });
});

describe("Next.js's answers that are not deliberate are replaced", () => {
  const next = (status: number) => ({ "x-next-status": String(status) });
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

  it("a page's own 405 (a POST without an action) is the error page with Allow", async () => {
    const response = await fetch(`${base}/pay/pl_1`, { method: "POST", headers: next(405), body: "{}" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD");
    expect(response.headers.get("x-request-id")).toMatch(/^req_\w+$/);
    expect(await response.text()).toContain("<h1>Method not allowed</h1>");
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
      expect(answer).toMatch(/\r\nX-Request-Id: req_\w+\r\n/);
      expect(answer).toContain('"code":"request_timeout"');
      // The bound (2 s for the whole request) plus the check's interval (1 s) and a loaded machine;
      // a connection nothing bounds stays open until the guard.
      expect(ms).toBeLessThan(15_000);
    },
    30_000,
  );
});

describe("a request Node.js would answer bare (or not at all) gets our answer", () => {
  /** Sends `sent` as raw bytes; resolves with everything that came back before the close. */
  const raw = (sent: string) =>
    new Promise<string>((resolve) => {
      const socket = connect((server.address() as AddressInfo).port, "127.0.0.1", () => socket.write(sent));
      let answer = "";
      socket.on("data", (chunk) => {
        answer += chunk.toString();
      });
      socket.on("close", () => resolve(answer));
      socket.on("error", () => {});
    });
  const huge = `X-Huge: ${"a".repeat(70_000)}\r\n`;

  it.each([
    [
      "headers of 70 KB under /api/",
      `GET /api/health HTTP/1.1\r\nHost: x\r\n${huge}\r\n`,
      431,
      "json",
      "headers_too_large",
    ],
    [
      "headers of 70 KB on a page",
      `GET /login HTTP/1.1\r\nHost: x\r\n${huge}\r\n`,
      431,
      "page",
      "Request headers too large",
    ],
    [
      "a header line without a colon",
      "GET /api/health HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n",
      400,
      "json",
      "request_malformed",
    ],
    ["a method Node.js does not know", "BREW /login HTTP/1.1\r\nHost: x\r\n\r\n", 400, "page", "Bad request"],
    [
      "a bad chunk size",
      "POST /api/checkout-sessions HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
      400,
      "json",
      "request_malformed",
    ],
    [
      "both Content-Length and chunked",
      "POST /api/checkout-sessions HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
      400,
      "json",
      "request_malformed",
    ],
    [
      "HTTP/1.1 without Host",
      "GET /api/health HTTP/1.1\r\nConnection: close\r\n\r\n",
      400,
      "json",
      "host_missing",
    ],
    [
      "an absolute-form target, which Next.js would redirect to",
      "GET http://evil.example/api/health HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n",
      400,
      "page",
      "Bad request",
    ],
    [
      "a dot segment, which Next.js resolves to another route than the one checked",
      "POST /api/health/../openapi.json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
      400,
      "json",
      "path_invalid",
    ],
    [
      "an encoded dot segment",
      "DELETE /api/health/%2e%2E/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
      400,
      "json",
      "path_invalid",
    ],
    [
      "a fragment, which no browser sends",
      "POST /api/health#frag HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
      400,
      "json",
      "path_invalid",
    ],
    [
      "an asterisk-form target",
      "GET * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
      400,
      "page",
      "Bad request",
    ],
    [
      "an Expect other than 100-continue",
      "POST /api/checkout-sessions HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}",
      417,
      "json",
      "expectation_unsupported",
    ],
    [
      "CONNECT",
      "CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n",
      405,
      "page",
      "Method not allowed",
    ],
  ])("%s", async (_name, sent, status, kind, said) => {
    const answer = await raw(sent);
    const [head, body] = answer.split("\r\n\r\n");
    expect(head).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
    expect(head).toMatch(/\r\nX-Request-Id: req_\w+\r\n/);
    expect(head).toContain("\r\nX-Frame-Options: DENY\r\n");
    expect(head).toContain("\r\nConnection: close");
    // Whole (Content-Length) or chunked, the JSON is the body's one object.
    if (kind === "json")
      expect(JSON.parse(body.slice(body.indexOf("{"), body.lastIndexOf("}") + 1)).error).toMatchObject({
        code: said,
      });
    else expect(body).toContain(`<h1>${said}</h1>`);
  });

  it("a request asking to upgrade to another protocol is answered as HTTP", async () => {
    nextSaw = [];
    const answer = await raw(
      "GET /api/health HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade, close\r\n\r\n",
    );
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(nextSaw).toEqual(["GET /api/health"]);
  });
});
