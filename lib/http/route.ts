import type { NextRequest } from "next/server";
import { findSessionUser, sessionCookieName } from "../auth/session-cookie";
import { db } from "../db/client";
import { forbidden, unauthenticated } from "../errors";
import { log } from "../log";
import { authenticateMerchant, type MerchantCaller } from "../merchant-auth/authenticate-merchant";
import { clientLimitKey } from "./client-address";
import { errorResponse } from "./error-response";
import { clientAddress, consumeRateLimit, limitFailedAuthentications } from "./rate-limit";
import { requestIdFor } from "./request-id";
import { assertSameOrigin } from "./same-origin";

// Route handlers are thin: one of these wrappers per caller kind authenticates, the handler
// parses with a schema from lib, calls one domain function and returns a serializer's output.

export type Reply = { status?: number; body: unknown; headers?: Record<string, string> };

export type PublicContext<P> = { request: NextRequest; params: P; requestId: string };
export type ApiKeyContext<P> = PublicContext<P> & { organizationId: string; caller: MerchantCaller };

type RouteArgs<P> = [request: NextRequest, route: { params: Promise<P> }];

function isPrivateApi(request: NextRequest) {
  return request.nextUrl.pathname.startsWith("/api/private/");
}

function toResponse(request: NextRequest, reply: Reply | Response): Response {
  if (reply instanceof Response) return reply;
  // Under /api/private/* every answer carries `success`, as the spec shows for webhook endpoints.
  const body = isPrivateApi(request) ? { success: true, data: reply.body } : reply.body;
  return Response.json(body, { status: reply.status ?? 200, headers: reply.headers });
}

/** A route anyone may call. */
export function publicRoute<P = Record<string, never>>(
  handler: (context: PublicContext<P>) => Promise<Reply | Response>,
) {
  return async (...[request, route]: RouteArgs<P>): Promise<Response> => {
    const requestId = requestIdFor(request.headers);
    const started = performance.now();
    let response: Response;
    try {
      response = toResponse(request, await handler({ request, params: await route.params, requestId }));
    } catch (error) {
      response = errorResponse(error, requestId, { privateApi: isPrivateApi(request) });
    }
    response.headers.set("X-Request-Id", requestId);
    log.info(
      {
        requestId,
        method: request.method,
        path: request.nextUrl.pathname,
        status: response.status,
        ms: Math.round(performance.now() - started),
      },
      "request",
    );
    return response;
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
  handler: (context: PublicContext<P> & { user: { id: string; email: string } }) => Promise<Reply | Response>,
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
 * per credential. Read-only credentials may only read.
 */
export function apiKeyRoute<P = Record<string, never>>(
  handler: (context: ApiKeyContext<P>) => Promise<Reply | Response>,
) {
  return publicRoute<P>(async (context) => {
    const { request } = context;
    const caller = await authenticateMerchant(db(), request.headers.get("authorization"), {
      clientAddress: clientAddress(request.headers),
      audience: "rest",
    });
    await consumeRateLimit("apiKey", caller.credential.id);
    if (caller.access === "read" && request.method !== "GET" && request.method !== "HEAD") {
      throw forbidden(
        "insufficient_access",
        "This credential has read-only access. Connect the agent with write access to make changes.",
      );
    }
    return handler({ ...context, organizationId: caller.organizationId, caller });
  });
}

/**
 * A read that merchants' servers make with their API key and the dashboard makes with the
 * signed-in member's session cookie (its live parts poll these). GET only: a cookie is sent by
 * the browser on its own, so it must never authorize a change.
 */
export function apiKeyOrMemberRoute<P = Record<string, never>>(
  handler: (context: PublicContext<P> & { organizationId: string }) => Promise<Reply | Response>,
) {
  const withApiKey = apiKeyRoute<P>(handler);
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
    return handler({ ...context, organizationId: member.organization.id });
  });
  return (...args: RouteArgs<P>) =>
    (args[0].headers.has("authorization") ? withApiKey : withSession)(...args);
}
