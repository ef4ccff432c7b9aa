import { type NextRequest, NextResponse } from "next/server";
import { type DevMailboxAccess, devMailboxAccess, devMailboxCookie } from "../auth/dev-mailbox-access";
import { config } from "../config";
import { devMailboxClosedPage } from "./error-page";

/** The path as routing reads it; an undecodable one is refused elsewhere (lib/http/server-answers.ts). */
function decoded(pathname: string) {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return pathname;
  }
}

/**
 * The development mailbox's door (lib/auth/dev-mailbox-access.ts), in the proxy before the page:
 * the key in the link becomes a cookie and a redirect to the address without it; no key, no
 * mailbox (401). Null lets the request through (the mailbox is off, or the cookie is good).
 */
export function devMailboxGuard(request: NextRequest): Response | null {
  const { email, baseUrl } = config();
  const path = decoded(request.nextUrl.pathname);
  if (!email.devMailbox || (path !== devMailboxCookie.path && !path.startsWith(`${devMailboxCookie.path}/`)))
    return null;
  const access: DevMailboxAccess = devMailboxAccess(
    email.devMailboxKey,
    {
      queryKey: request.nextUrl.searchParams.get("key"),
      cookie: request.cookies.get(devMailboxCookie.name)?.value,
    },
    new Date(),
  );
  if (access.kind === "open") return null;
  if (access.kind === "closed") return devMailboxClosedPage();
  const secure = baseUrl.startsWith("https:") ? "; Secure" : "";
  // On the host the browser used (the cookie is that host's), without the key.
  const mailbox = request.nextUrl.clone();
  mailbox.pathname = devMailboxCookie.path;
  mailbox.search = "";
  const redirect = NextResponse.redirect(mailbox, 303);
  redirect.headers.set(
    "Set-Cookie",
    `${devMailboxCookie.name}=${access.cookie}; Path=${devMailboxCookie.path}; Max-Age=${devMailboxCookie.maxAgeSeconds}; HttpOnly; SameSite=Strict${secure}`,
  );
  redirect.headers.set("Cache-Control", "no-store");
  return redirect;
}
