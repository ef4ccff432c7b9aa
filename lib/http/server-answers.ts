import { config } from "../config";
import { invalidRequest, methodNotAllowed, ServiceError } from "../errors";
import { log, maskTarget } from "../log";
import { assertStorableInput } from "../validation/storable-text";
import { errorPageHtml } from "./error-page";
import { errorEnvelope } from "./error-response";
import { requestIdFor, requestIdHeader } from "./request-id";
import { apiSecurityHeaders, newNonce, securityHeaders } from "./security-headers";

// Answers the custom server (scripts/serve.ts) writes itself, for requests Next.js cannot answer
// deliberately: a target it cannot decode (it throws and answers a bare 500), a wrong method (405
// without a body on a route handler, the page itself on a page), a server action whose body it
// cannot decode (500), a request Node.js's parser refuses (its bare 400 or 431). Each is
// the JSON error envelope under /api/ and for route handlers, the plain error page elsewhere, with
// the request id, the security headers and a log line, as every other answer.

export type PlainAnswer = { status: number; headers: Record<string, string>; body: string };

/** What is wrong with a request target, or nothing: a path that is not percent-encoded UTF-8, or NUL. */
function unreadableTargetProblem(target: string): ServiceError | undefined {
  // Absolute-form (`GET http://host/x`) and `*`: Next.js would redirect to the named host.
  if (!target.startsWith("/")) {
    return invalidRequest("path_invalid", "The request target must be a path starting with /.", "path");
  }
  // Browsers never send a fragment; a path's `.` and `..` segments Next.js resolves to another
  // route than the one whose methods were checked here.
  if (target.includes("#")) {
    return invalidRequest("path_invalid", "The request target must not hold a fragment (#).", "path");
  }
  const queryAt = target.indexOf("?");
  const path = queryAt < 0 ? target : target.slice(0, queryAt);
  try {
    for (const segment of path.split("/")) {
      const decoded = decodeURIComponent(segment);
      if (decoded === "." || decoded === "..") {
        return invalidRequest("path_invalid", "The request path must not hold . or .. segments.", "path");
      }
      assertStorableInput({ path: decoded });
    }
    if (queryAt >= 0) {
      const query = target.slice(queryAt + 1);
      // URLSearchParams would read a bad escape as U+FFFD; Next.js refuses some itself, without
      // our headers. Refused here, whole.
      for (const part of query.split(/[&=]/)) decodeURIComponent(part);
      // Every pair, repeated names too: a handler may read any of them.
      for (const [name, value] of new URLSearchParams(query)) assertStorableInput({ [name]: value });
    }
  } catch (error) {
    if (error instanceof ServiceError) return error;
    return invalidRequest(
      "path_undecodable",
      "The request path or query is not valid percent-encoded UTF-8.",
      "path",
    );
  }
  return undefined;
}

type Request = { method: string; target: string; requestId: string | undefined };

const pageTitles: Record<number, string> = {
  405: "Method not allowed",
  408: "Request timeout",
  417: "Expectation failed",
  413: "Request too large",
  431: "Request headers too large",
};

function answer(request: Request, problem: ServiceError, as: "json" | "page"): PlainAnswer {
  const requestId = requestIdFor(
    new Headers(request.requestId ? { [requestIdHeader]: request.requestId } : {}),
  );
  const { baseUrl, nodeEnv } = config();
  const https = baseUrl.startsWith("https:");
  let body: string;
  let headers: Record<string, string>;
  if (as === "json") {
    const envelope = errorEnvelope(problem, requestId, {
      privateApi: request.target.startsWith("/api/private/"),
    });
    body = JSON.stringify(envelope.body);
    headers = { ...envelope.headers, "Content-Type": "application/json", ...apiSecurityHeaders(https) };
  } else {
    body = errorPageHtml(pageTitles[problem.status] ?? "Bad request", problem.message);
    headers = {
      ...problem.headers,
      "Content-Type": "text/html; charset=utf-8",
      ...securityHeaders({ nonce: newNonce(), https, development: nodeEnv === "development" }),
    };
  }
  log.info(
    // The target as sent, masked (a query value may be a token), cut short: it is the client's text.
    {
      requestId,
      method: request.method,
      path: maskTarget(request.target).slice(0, 200),
      status: problem.status,
      code: problem.code,
    },
    "request",
  );
  return {
    status: problem.status,
    body,
    headers: { ...headers, "Cache-Control": "no-store", "X-Request-Id": requestId },
  };
}

/** The 400 for an HTTP/1.1 request without Host, which Node.js would answer bare. */
export function refuseMissingHost(request: Request): PlainAnswer {
  return answer(
    request,
    invalidRequest("host_missing", "An HTTP/1.1 request must carry a Host header.", "Host"),
    request.target.startsWith("/api/") ? "json" : "page",
  );
}

/** The 417 for an Expect header other than 100-continue, which Node.js would answer bare. */
export function refuseExpectation(request: Request): PlainAnswer {
  return answer(
    request,
    new ServiceError(
      417,
      "invalid_request_error",
      "expectation_unsupported",
      "Only Expect: 100-continue is supported.",
    ),
    request.target.startsWith("/api/") ? "json" : "page",
  );
}

/** The 400 for a target that cannot be decoded or carries NUL; null for every other request. */
export function refuseUnreadableTarget(request: Request): PlainAnswer | null {
  const problem = unreadableTargetProblem(request.target);
  return problem ? answer(request, problem, request.target.startsWith("/api/") ? "json" : "page") : null;
}

/**
 * The 405 for a method the target does not take, naming the ones it does (`allow`): the envelope
 * for a route handler (which Next.js answers without a body), the error page for a page (which
 * Next.js would render as if it were a GET).
 */
export function refuseMethod(request: Request, allow: string, as: "json" | "page"): PlainAnswer {
  return answer(request, methodNotAllowed(request.method, allow), as);
}

/**
 * The 400 for a form post or server action that Next.js failed on: our actions answer every
 * error of their own (lib/http/buyer-action.ts, lib/http/dashboard-session.ts), so a 500 there
 * is Next.js refusing a body it cannot decode.
 */
export function undecodableAction(request: Request): PlainAnswer {
  log.warn(
    { method: request.method, path: request.target.slice(0, 200) },
    "undecodable form post or server action",
  );
  return answer(
    request,
    invalidRequest(
      "action_undecodable",
      "The form submission could not be read. Reload the page and try again.",
    ),
    "page",
  );
}

/** The method and target of the request line at the start of `received`, if it is there whole. */
export function requestLineOf(received: Buffer | undefined): { method: string; target: string } | undefined {
  const line = /^([A-Z]{1,20}) (\S{1,8192}) HTTP\/1\.[01]\r?\n/.exec(
    received?.subarray(0, 8300).toString("latin1") ?? "",
  );
  return line ? { method: line[1], target: line[2] } : undefined;
}

/** Node.js's refusals by its error code: our status, code and message for each (else a 400). */
const parserRefusals: Record<string, [status: number, code: string, message: string]> = {
  HPE_HEADER_OVERFLOW: [431, "headers_too_large", "The request headers are too large."],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, "body_too_large", "The request body is too large."],
  ERR_HTTP_REQUEST_TIMEOUT: [408, "request_timeout", "The request did not arrive in time."],
};

/**
 * The answer to a request Node.js's parser refused before a handler saw it (headers too large,
 * malformed HTTP) or that a client was too slow to send: what Node.js would write bare, with our
 * body and headers. Without the request line (`received` may hold only later bytes), the envelope.
 */
export function clientErrorAnswer(
  errorCode: string | undefined,
  received: { method: string; target: string } | undefined,
): PlainAnswer {
  const [status, code, message] = parserRefusals[errorCode ?? ""] ?? [
    400,
    "request_malformed",
    "The request is not valid HTTP/1.1.",
  ];
  const request = { method: received?.method ?? "-", target: received?.target ?? "-", requestId: undefined };
  return answer(
    request,
    new ServiceError(status, "invalid_request_error", code, message),
    received && !received.target.startsWith("/api/") ? "page" : "json",
  );
}
