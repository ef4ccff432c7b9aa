import {
  createServer,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  ServerResponse,
  STATUS_CODES,
} from "node:http";
import path from "node:path";
import type { Duplex } from "node:stream";
import { databaseUnavailableHere } from "../lib/http/request-faults";
import {
  clientErrorAnswer,
  type PlainAnswer,
  refuseExpectation,
  refuseMethod,
  refuseMissingHost,
  refuseUnreadableTarget,
  requestLineOf,
  undecodableAction,
} from "../lib/http/server-answers";
import { allowedMethods, readRouteMethods } from "./route-methods";

/**
 * A response whose headers go out after a stop signal says `Connection: close`, so its keep-alive
 * client goes elsewhere; every response writes its headers through writeHead. Checked there
 * rather than by keeping the responses under way in a set: a long-lived set holding every
 * response kept each request's objects through the young-generation collections that should
 * have freed them (docs/operations.md, "Where the latency tail comes from").
 *
 * writeHead is also where an answer of Next.js's that is not deliberate (a server action's 500, see
 * `replace`) is swapped for ours: its body is dropped and ours written instead.
 */
class AppResponse extends ServerResponse {
  /** Set per server: whether a stop signal came. */
  isStopping?: () => boolean;
  /** Set per request: our answer instead of Next.js's answer of this status, if any. */
  replace?: (status: number) => PlainAnswer | undefined;
  #replacement?: Buffer;
  #replaced?: { status: number; answer: PlainAnswer | undefined };

  /** The status writeHead will send: a 500 on a lost database goes out as 503. */
  #status(): number {
    return this.statusCode === 500 && databaseUnavailableHere() ? 503 : this.statusCode;
  }

  /** `replace`'s answer for this status, asked once (it logs). */
  #replacementFor(status: number): PlainAnswer | undefined {
    if (!this.replace) return undefined;
    if (this.#replaced?.status !== status) this.#replaced = { status, answer: this.replace(status) };
    return this.#replaced.answer;
  }

  override writeHead(status: number, message?: string, headers?: OutgoingHttpHeaders): this;
  override writeHead(status: number, headers?: OutgoingHttpHeaders): this;
  override writeHead(...args: [number, (string | OutgoingHttpHeaders)?, OutgoingHttpHeaders?]): this {
    // A page that failed on a lost database: retry shortly, as the API says (lib/http/request-faults.ts).
    if (args[0] === 500 && databaseUnavailableHere()) {
      args[0] = 503;
      this.setHeader("retry-after", "2");
    }
    const replacement = this.#replacementFor(args[0]);
    if (replacement) {
      for (const name of this.getHeaderNames()) this.removeHeader(name);
      this.#replacement = Buffer.from(replacement.body);
      args = [replacement.status, { ...replacement.headers, "Content-Length": this.#replacement.length }];
    }
    if (this.isStopping?.()) this.setHeader("connection", "close");
    super.writeHead.apply(this, args as [number]);
    return this;
  }

  // Headers written first only when ours replace Next.js's answer: otherwise Node.js writes them
  // itself, with a Content-Length for a body sent whole.
  override write(...args: unknown[]): boolean {
    if (!this.headersSent && this.#replacementFor(this.#status())) this.writeHead(this.statusCode);
    if (this.#replacement) return true;
    return (super.write as (...all: unknown[]) => boolean).apply(this, args);
  }

  override end(...args: unknown[]): this {
    if (!this.headersSent && this.#replacementFor(this.#status())) this.writeHead(this.statusCode);
    if (this.#replacement) return super.end(this.#replacement);
    return (super.end as (...all: unknown[]) => this).apply(this, args);
  }
}

type About = { method: string; target: string; requestId: string | undefined };

/** The answers of Next.js's that we replace for this request (lib/http/server-answers.ts). */
function replacementsFor(request: IncomingMessage, about: About, allow: string | undefined) {
  // A post to a page: a server action (with its header) or a plain form's submission.
  const formPost =
    about.method === "POST" &&
    allow === undefined &&
    (request.headers["next-action"] !== undefined ||
      /^(multipart\/form-data|application\/x-www-form-urlencoded)/i.test(
        request.headers["content-type"] ?? "",
      ));
  // A page's own 405 (Next.js refusing a POST without an action) has no body and no Allow.
  return (status: number) =>
    status === 500 && formPost
      ? undecodableAction(about)
      : status === 405 && allow === undefined
        ? refuseMethod(about, "GET, HEAD", "page")
        : undefined;
}

/**
 * The methods a page takes: GET and HEAD render it, POST carries its server actions and forms.
 * Next.js would render a page for a PUT or DELETE too (200), and answer a method it does not know
 * with a bare 400 or 500.
 */
const pageMethods = "GET, HEAD, POST";

/**
 * The 405 for a method the target does not take: a route handler's in the envelope (Next.js
 * answers its own without a body or Allow), a page's as the error page.
 */
function wrongMethod(about: About, allow: string | undefined): PlainAnswer | null {
  const allowed = allow ?? pageMethods;
  if (allowed.split(", ").includes(about.method)) return null;
  return refuseMethod(about, allowed, allow === undefined ? "page" : "json");
}

/** Our answer written straight to a socket, which is closed after it. */
function rawAnswer(answer: PlainAnswer): string {
  const headers = {
    ...answer.headers,
    "Content-Length": Buffer.byteLength(answer.body),
    Connection: "close",
  };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  return `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\n${lines.join("\r\n")}\r\n\r\n${answer.body}`;
}

/** How long a client may take: its headers, and its whole request (the body included). */
export const requestBounds = { headersMs: 20_000, requestMs: 30_000 };

/**
 * The HTTP server in front of Next.js (scripts/serve.ts). Every request gets a deliberate answer:
 * a target Next.js cannot decode is answered here (it throws and answers a bare 500), so is a
 * method the target does not take (405 with Allow, read from the route files; a page takes GET,
 * HEAD and POST), and a form post Next.js fails to decode is a 400 (lib/http/server-answers.ts).
 * A request Node.js's parser refuses (headers over its 16 KiB, malformed HTTP) gets the answer
 * Node.js would give, in our shape. Every request is answered or closed within a bound: a client
 * that has not sent its headers or its whole request (chunked or not) in time gets 408 and its
 * connection closed, checked every second. Bodies themselves are limited by their readers.
 */
export function createAppServer(options: {
  /** The repository, whose app/ lists the route handlers. */
  root: string;
  handle: (request: IncomingMessage, response: ServerResponse) => void;
  isStopping: () => boolean;
  bounds?: typeof requestBounds;
}) {
  const routes = readRouteMethods(path.join(options.root, "app"));
  const bounds = options.bounds ?? requestBounds;
  const server = createServer(
    {
      ServerResponse: AppResponse,
      headersTimeout: bounds.headersMs,
      requestTimeout: bounds.requestMs,
      connectionsCheckingInterval: Math.min(1_000, bounds.headersMs),
      // Answered below with our 400, not Node.js's bare one.
      requireHostHeader: false,
      // Nothing here speaks another protocol: a request asking to upgrade is answered as HTTP
      // (without this, Node.js closes its connection without a word). Newer than @types/node.
      ...({ shouldUpgradeCallback: () => false } as object),
    },
    (request, response) => {
      const appResponse = response as AppResponse;
      appResponse.isStopping = options.isStopping;
      const about = {
        method: request.method ?? "GET",
        target: request.url ?? "/",
        requestId: request.headers["x-request-id"] as string | undefined,
      };
      const allow = allowedMethods(routes, about.target.split("?")[0]);
      const hostMissing = request.httpVersion === "1.1" && !request.headers.host;
      const refused = hostMissing
        ? refuseMissingHost(about)
        : (refuseUnreadableTarget(about) ?? wrongMethod(about, allow));
      if (refused) {
        response.writeHead(refused.status, refused.headers).end(refused.body);
        return;
      }
      appResponse.replace = replacementsFor(request, about, allow);
      options.handle(request, response);
    },
  );
  server.on("checkExpectation", (request, response) => {
    const refused = refuseExpectation({
      method: request.method ?? "GET",
      target: request.url ?? "/",
      requestId: request.headers["x-request-id"] as string | undefined,
    });
    response.writeHead(refused.status, refused.headers).end(refused.body);
  });
  // CONNECT (a proxy's method): Node.js would close the connection without a word.
  server.on("connect", (request: IncomingMessage, socket: Duplex) => {
    const about = { method: "CONNECT", target: request.url ?? "-", requestId: undefined };
    socket.end(rawAnswer(refuseMethod(about, pageMethods, "page")));
  });
  // Node.js's own handling (its bare 400, 408, 413 or 431), with our answer in place of its own:
  // only where no answer has started on the socket, and none to a client that is gone.
  server.on("clientError", (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket) => {
    const underWay = (socket as { _httpMessage?: ServerResponse })._httpMessage;
    if (!socket.writable || error.code === "ECONNRESET" || underWay?.headersSent) {
      socket.destroy();
      return;
    }
    const request = underWay?.req
      ? { method: underWay.req.method ?? "-", target: underWay.req.url ?? "-" }
      : requestLineOf(error.rawPacket);
    socket.end(rawAnswer(clientErrorAnswer(error.code, request)));
  });
  return server;
}
