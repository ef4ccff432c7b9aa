import { type NextRequest, NextResponse } from "next/server";
import { sessionCookieName } from "./lib/auth/session-cookie";
import { config as serviceConfig } from "./lib/config";
import { ServiceError } from "./lib/errors";
import { devMailboxGuard } from "./lib/http/dev-mailbox-guard";
import { tooManyRequestsPage } from "./lib/http/error-page";
import { paymentLinkHeader } from "./lib/http/payment-link";
import { requestIdFor, requestIdHeader } from "./lib/http/request-id";
import { formTargetsFor, newNonce, nonceHeader, securityHeaders } from "./lib/http/security-headers";
import { isLimitedPageLoad, limitPageLoad } from "./lib/rate-limit/limit-page-load";

/**
 * A page cannot set its status from a server component (the render may already be streaming
 * when the limiter answers), so a page that spends the public budget is counted here, before
 * Next.js renders it: a client over its budget gets a real 429 with Retry-After and a page that
 * says so. API routes count in their own wrappers (lib/http/route.ts) and answer the JSON envelope.
 */
async function refusedPageLoad(request: NextRequest): Promise<Response | null> {
  if (!isLimitedPageLoad(request.method, request.nextUrl.pathname)) return null;
  try {
    await limitPageLoad(request.headers);
    return null;
  } catch (error) {
    if (error instanceof ServiceError && error.status === 429) return tooManyRequestsPage(error);
    throw error;
  }
}

// Every page's response carries X-Request-Id and the security headers; route handlers read the
// same id from the forwarded request header so it also appears in error bodies and logs. The API
// under /api/ is not proxied (see `config`): its route wrappers set the id and the API's own
// security headers (lib/http/route.ts), and a request spends no time here.
export async function proxy(request: NextRequest) {
  const requestId = requestIdFor(request.headers);
  const { baseUrl, nodeEnv } = serviceConfig();
  const nonce = newNonce();
  const secure = securityHeaders({
    nonce,
    https: baseUrl.startsWith("https:"),
    development: nodeEnv === "development",
    formTargets: formTargetsFor(request.nextUrl.pathname),
  });
  const headers = new Headers(request.headers);
  headers.set(requestIdHeader, requestId);
  headers.set(nonceHeader, nonce);
  // Next.js takes the nonce for its own scripts from the request's policy.
  headers.set("Content-Security-Policy", secure["Content-Security-Policy"]);
  // Signed out, the authorization endpoint is answered by a route handler, which can refuse a bad
  // request with a real 400 instead of redirecting (app/oauth/authorize/signed-out/route.ts).
  const signedOutAuthorization =
    request.method === "GET" &&
    request.nextUrl.pathname === "/oauth/authorize" &&
    !request.cookies.has(sessionCookieName());
  const refused = (await refusedPageLoad(request)) ?? devMailboxGuard(request);
  const response = refused
    ? refused
    : signedOutAuthorization
      ? NextResponse.rewrite(new URL(`/oauth/authorize/signed-out${request.nextUrl.search}`, request.url), {
          request: { headers },
        })
      : NextResponse.next({ request: { headers } });
  response.headers.set("X-Request-Id", requestId);
  for (const [name, value] of Object.entries(secure)) response.headers.set(name, value);
  // A pay address points agents at its x402 resource (lib/http/payment-link.ts); set here because
  // the hosted page, a server component, cannot set its own headers.
  const paymentLink = refused ? null : paymentLinkHeader(request.method, request.nextUrl.pathname);
  if (paymentLink) response.headers.append("Link", paymentLink);
  return response;
}

// Not the API under /api/, whose route wrappers do this work themselves: running the proxy was
// over a third of an API request's CPU (bench/checkout-sessions.ts). Except next-auth's routes
// (/api/auth/), whose pages and redirects go to browsers.
export const config = {
  matcher: ["/((?!api/(?!auth/)|_next/static|_next/image|favicon.ico).*)"],
};
