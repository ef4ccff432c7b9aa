import { type NextRequest, NextResponse } from "next/server";
import { requestIdFor, requestIdHeader } from "./lib/http/request-id";

// Every response, page or API, carries X-Request-Id; route handlers read the same id from the
// forwarded request header so it also appears in error bodies and logs.
export function proxy(request: NextRequest) {
  const requestId = requestIdFor(request.headers);
  const headers = new Headers(request.headers);
  headers.set(requestIdHeader, requestId);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("X-Request-Id", requestId);
  return response;
}

export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon.ico).*)"],
};
