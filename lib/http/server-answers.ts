import { config } from "../config";
import { invalidRequest, ServiceError } from "../errors";
import { log } from "../log";
import { assertStorableInput } from "../validation/storable-text";
import { errorPageHtml } from "./error-page";
import { errorEnvelope } from "./error-response";
import { requestIdFor, requestIdHeader } from "./request-id";
import { apiSecurityHeaders, newNonce, securityHeaders } from "./security-headers";

// Answers the custom server (scripts/serve.ts) writes itself, for requests Next.js cannot answer
// deliberately: a target it cannot decode (it throws and answers a bare 500), a wrong method on a
// route handler (405 without a body), a server action whose body it cannot decode (500). Each is
// the JSON error envelope under /api/ and for route handlers, the plain error page elsewhere, with
// the request id, the security headers and a log line, as every other answer.

export type PlainAnswer = { status: number; headers: Record<string, string>; body: string };

/** What is wrong with a request target, or nothing: a path that is not percent-encoded UTF-8, or NUL. */
function unreadableTargetProblem(target: string): ServiceError | undefined {
  const queryAt = target.indexOf("?");
  const path = queryAt < 0 ? target : target.slice(0, queryAt);
  try {
    for (const segment of path.split("/")) assertStorableInput({ path: decodeURIComponent(segment) });
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
    body = errorPageHtml(problem.status === 405 ? "Method not allowed" : "Bad request", problem.message);
    headers = {
      "Content-Type": "text/html; charset=utf-8",
      ...securityHeaders({ nonce: newNonce(), https, development: nodeEnv === "development" }),
    };
  }
  log.info(
    // The raw target as sent, cut short: it is the client's text.
    {
      requestId,
      method: request.method,
      path: request.target.slice(0, 200),
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

/** The 400 for a target that cannot be decoded or carries NUL; null for every other request. */
export function refuseUnreadableTarget(request: Request): PlainAnswer | null {
  const problem = unreadableTargetProblem(request.target);
  return problem ? answer(request, problem, request.target.startsWith("/api/") ? "json" : "page") : null;
}

/** The 405 of a route handler without the method, naming the ones it has (`allow`). */
export function methodNotAllowed(request: Request, allow: string): PlainAnswer {
  const problem = new ServiceError(
    405,
    "invalid_request_error",
    "method_not_allowed",
    `${request.method} is not allowed here. Allowed: ${allow}.`,
    undefined,
    { Allow: allow },
  );
  return answer(request, problem, "json");
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
