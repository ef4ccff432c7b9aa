import type { NextRequest } from "next/server";
import { type ApiVersion, apiVersionHeader, latestApiVersion } from "../api-version/api-versions";
import { resolveApiVersion } from "../api-version/resolve-api-version";
import { findSessionUser, sessionCookieName } from "../auth/session-cookie";
import { actorOf, authorize, type Decision } from "../authority/authorize";
import type { OperationId } from "../authority/operations";
import { config } from "../config";
import { db } from "../db/client";
import { forbidden, ServiceError, unauthenticated } from "../errors";
import { log, maskTarget } from "../log";
import { authenticateMerchant, type MerchantCaller } from "../merchant-auth/authenticate-merchant";
import { observeRequest } from "../metrics/observe-request";
import { routeTemplate } from "../metrics/route-template";
import { clientAddress, clientLimitKey } from "../net/client-address";
import { consumeRateLimit, limitFailedAuthentications } from "../rate-limit/rate-limit";
import { annotateOrganization, inRequestSpan } from "../telemetry/spans";
import { assertStorableInput } from "../validation/storable-text";
import { errorResponse } from "./error-response";
import { requestIdFor } from "./request-id";
import { assertSameOrigin } from "./same-origin";
import { apiSecurityHeaders } from "./security-headers";

// Route handlers are thin: one of these wrappers per caller kind authenticates, the handler
// parses with a schema from lib, calls one domain function and returns a serializer's output.

export type Reply = { status?: number; body: unknown; headers?: Record<string, string> };

export type PublicContext<P> = {
  request: NextRequest;
  params: P;
  requestId: string;
  /** Answer in this (the organization's) API version unless the request names one. */
  pinApiVersion: (pinned: string | undefined) => void;
};
export type ApiKeyContext<P> = PublicContext<P> & {
  organizationId: string;
  caller: MerchantCaller;
  /** `propose` where the operation routes money and the caller cannot decide that alone. */
  decision: Decision;
};

type RouteArgs<P> = [request: NextRequest, route: { params: Promise<P> }];

function isPrivateApi(request: NextRequest) {
  return request.nextUrl.pathname.startsWith("/api/private/");
}

function toResponse(request: NextRequest, reply: Reply | Response): Response {
  if (reply instanceof Response) return reply;
  // Under /api/private/* every answer carries `success`, as docs/webhooks.md shows for endpoints.
  const body = isPrivateApi(request) ? { success: true, data: reply.body } : reply.body;
  return Response.json(body, { status: reply.status ?? 200, headers: reply.headers });
}

/** The 404 of a path the API has no operation at. */
export function unknownApiPath(request: NextRequest): ServiceError {
  return new ServiceError(
    404,
    "not_found_error",
    "unknown_path",
    `No API operation at ${request.method} ${request.nextUrl.pathname}. The operations are listed at /api/openapi.json.`,
  );
}

/** A route anyone may call. */
export function publicRoute<P = Record<string, never>>(
  handler: (context: PublicContext<P>) => Promise<Reply | Response>,
) {
  return async (...[request, route]: RouteArgs<P>): Promise<Response> => {
    const requestId = requestIdFor(request.headers);
    const started = performance.now();
    const params = await route.params;
    const template = routeTemplate(request.nextUrl.pathname, params as Record<string, string>);
    return inRequestSpan(request.method, template, requestId, async (span) => {
      const requestedVersion = request.headers.get(apiVersionHeader);
      let apiVersion: ApiVersion = latestApiVersion;
      let response: Response;
      try {
        apiVersion = resolveApiVersion(requestedVersion);
        // Path ids and query parameters reach queries too: text PostgreSQL cannot store is a 400
        // here, before any handler, whatever the handler reads.
        assertStorableInput(params);
        assertStorableInput(Object.fromEntries(request.nextUrl.searchParams));
        const pinApiVersion = (pinned: string | undefined) => {
          apiVersion = resolveApiVersion(requestedVersion, pinned);
        };
        response = toResponse(request, await handler({ request, params, requestId, pinApiVersion }));
      } catch (error) {
        response = errorResponse(error, requestId, { privateApi: isPrivateApi(request) });
      }
      response.headers.set("X-Request-Id", requestId);
      response.headers.set(apiVersionHeader, apiVersion);
      if (request.nextUrl.pathname.startsWith("/api/")) {
        // A route that sets its own (a stored logo's stricter policy) keeps it.
        for (const [name, value] of Object.entries(
          apiSecurityHeaders(config().baseUrl.startsWith("https:")),
        )) {
          if (!response.headers.has(name)) response.headers.set(name, value);
        }
      }
      span.setAttribute("http.response.status_code", response.status);
      observeRequest(request.method, template, response.status, started);
      log.info(
        {
          requestId,
          method: request.method,
          path: maskTarget(request.nextUrl.pathname),
          status: response.status,
          ms: Math.round(performance.now() - started),
        },
        "request",
      );
      return response;
    });
  };
}

/** A public route that buyers' browsers and agents call: rate limited per client address. */
export function publicApiRoute<P = Record<string, never>>(
  handler: (context: PublicContext<P>) => Promise<Reply | Response>,
) {
  return publicRoute<P>(async (context) => {
    await consumeRateLimit("publicIp", clientLimitKey(clientAddress(context.request.headers)));
    return handler(context);
  });
}

/**
 * A public route that an agent calls with a one-time token as `Authorization: Bearer …` (agent
 * setup status and check-in). The handler checks the token; a client whose tokens keep failing
 * is refused like one whose credentials keep failing.
 */
export function oneTimeTokenRoute<P = Record<string, never>>(
  handler: (context: PublicContext<P> & { token: string | null }) => Promise<Reply | Response>,
) {
  return publicApiRoute<P>((context) =>
    limitFailedAuthentications(clientAddress(context.request.headers), () => {
      const authorization = context.request.headers.get("authorization") ?? "";
      return handler({ ...context, token: /^Bearer (\S+)$/.exec(authorization)?.[1] ?? null });
    }),
  );
}

/**
 * A JSON endpoint of the dashboard's own pages, for the signed-in browser. The browser attaches
 * the session cookie to cross-site requests too, so the request must come from our own origin.
 */
export function sessionRoute<P = Record<string, never>>(
  handler: (
    context: PublicContext<P> & { user: { id: string; email: string; signedInAt: Date } },
  ) => Promise<Reply | Response>,
) {
  return publicRoute<P>(async (context) => {
    const { request } = context;
    assertSameOrigin(request.headers);
    const user = await findSessionUser(db(), request.cookies.get(sessionCookieName())?.value);
    if (!user) throw unauthenticated("signed_out", "Your session has ended. Sign in again.");
    return handler({ ...context, user });
  });
}

/**
 * A route for merchants' servers and agents: `Authorization: Bearer sk_live_…` (an API key) or
 * `sk_agent_…` (an agent credential), scoped to the credential's organization and rate limited
 * per credential. What the credential may do is the authority table's row for `operation`.
 */
export function apiKeyRoute<P = Record<string, never>>(
  operation: OperationId,
  handler: (context: ApiKeyContext<P>) => Promise<Reply | Response>,
) {
  return publicRoute<P>(async (context) => {
    const { request } = context;
    const caller = await authenticateMerchant(db(), request.headers.get("authorization"), {
      clientAddress: clientAddress(request.headers),
      audience: "rest",
    });
    context.pinApiVersion(caller.apiVersion);
    await consumeRateLimit("apiKey", caller.credential.id);
    const decision = authorize(actorOf(caller), operation);
    annotateOrganization(caller.organizationId);
    return handler({ ...context, organizationId: caller.organizationId, caller, decision });
  });
}

/**
 * A read that merchants' servers make with their API key and the dashboard makes with the
 * signed-in member's session cookie (its live parts poll these). GET only: a cookie is sent by
 * the browser on its own, so it must never authorize a change.
 */
export function apiKeyOrMemberRoute<P = Record<string, never>>(
  operation: OperationId,
  handler: (context: PublicContext<P> & { organizationId: string }) => Promise<Reply | Response>,
) {
  const withApiKey = apiKeyRoute<P>(operation, handler);
  const withSession = publicRoute<P>(async (context) => {
    // Loaded on demand so API-key traffic never pays for the sign-in machinery.
    const { findMember } = await import("./dashboard-session");
    const member = await findMember();
    if (!member) {
      throw unauthenticated(
        "missing_api_key",
        "No API key provided. Send it as `Authorization: Bearer sk_live_…`.",
      );
    }
    authorize({ kind: member.role === "OWNER" ? "owner" : "member" }, operation);
    annotateOrganization(member.organization.id);
    return handler({ ...context, organizationId: member.organization.id });
  });
  return (...args: RouteArgs<P>) =>
    (args[0].headers.has("authorization") ? withApiKey : withSession)(...args);
}

const loopbackHosts = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * DNS-rebinding protection for /mcp: the Host must be the configured base URL's (any loopback
 * name for a loopback base URL), and a browser's Origin must be the base URL's origin.
 */
function checkHostAndOrigin(headers: Headers) {
  const base = new URL(config().baseUrl);
  const host = headers.get("host");
  const sameHost = (value: string) => {
    const candidate = new URL(`http://${value}`);
    if (candidate.host === base.host) return true;
    return (
      loopbackHosts.has(base.hostname) &&
      loopbackHosts.has(candidate.hostname) &&
      candidate.port === base.port
    );
  };
  let hostAllowed = false;
  try {
    hostAllowed = host !== null && sameHost(host);
  } catch {
    hostAllowed = false;
  }
  if (!hostAllowed) throw forbidden("host_not_allowed", `This server answers only for ${base.host}.`);
  const origin = headers.get("origin");
  if (origin !== null && origin !== base.origin) {
    throw forbidden("origin_not_allowed", "Requests from this web origin are not allowed.");
  }
}

/** The 401 of the MCP authorization spec: where to discover how to sign in, and the scopes. */
function withSignInChallenge(error: ServiceError, tokenSent: boolean): ServiceError {
  const resourceMetadata = `${config().baseUrl}/.well-known/oauth-protected-resource/mcp`;
  const challenge = [
    `Bearer resource_metadata="${resourceMetadata}"`,
    'scope="read write"',
    ...(tokenSent ? ['error="invalid_token"'] : []),
  ].join(", ");
  return new ServiceError(error.status, error.type, error.code, error.message, error.param, {
    ...error.headers,
    "WWW-Authenticate": challenge,
  });
}

/**
 * The remote MCP server's caller: an OAuth access token, an agent credential or an API key
 * (`Authorization: Bearer …`), scoped to its organization, rate limited per credential, with
 * Host and Origin checked first. A missing or bad credential gets the sign-in challenge.
 */
export function mcpRoute(
  handler: (context: PublicContext<Record<string, never>> & { caller: MerchantCaller }) => Promise<Response>,
) {
  return publicRoute(async (context) => {
    checkHostAndOrigin(context.request.headers);
    const { request } = context;
    const authorization = request.headers.get("authorization");
    let caller: MerchantCaller;
    try {
      caller = await authenticateMerchant(db(), authorization, {
        clientAddress: clientAddress(request.headers),
        audience: "mcp",
      });
    } catch (error) {
      if (error instanceof ServiceError && error.status === 401) {
        throw withSignInChallenge(error, authorization !== null);
      }
      throw error;
    }
    await consumeRateLimit("apiKey", caller.credential.id);
    annotateOrganization(caller.organizationId);
    return handler({ ...context, caller });
  });
}
