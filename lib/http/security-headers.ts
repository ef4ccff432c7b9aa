import { randomBytes } from "node:crypto";

/** The request header through which pages and route handlers read this response's CSP nonce. */
export const nonceHeader = "x-nonce";

/**
 * Where a page's forms may send the browser. Browsers apply form-action to the redirects that
 * follow a submission too, so the OAuth consent page, whose decision redirects to the client's
 * registered URI, allows what registration accepts (https, or http on loopback).
 */
const formTargets = {
  self: "'self'",
  "oauth-consent": "'self' https: http://127.0.0.1:* http://localhost:*",
} as const;

export type FormTargets = keyof typeof formTargets;

/** The form targets for a page path: only the consent page sends the browser to another site. */
export function formTargetsFor(pathname: string): FormTargets {
  return pathname === "/oauth/authorize" ? "oauth-consent" : "self";
}

export function newNonce(): string {
  return randomBytes(18).toString("base64");
}

/**
 * Headers every response carries. Scripts run only from this origin with the response's nonce
 * ('strict-dynamic' lets those load Next.js's own chunks), so an injected <script> or inline
 * handler never runs. Styles allow 'unsafe-inline': React, recharts and the API reference set
 * style attributes, which no nonce can cover, and a style cannot run code. HSTS only over https,
 * where it cannot lock a browser out of a plain-http development or test server.
 */
export function securityHeaders(options: {
  nonce: string;
  https: boolean;
  development: boolean;
  formTargets?: FormTargets;
}): Record<string, string> {
  const policy = [
    "default-src 'self'",
    // React in development rebuilds error stacks with eval; production never needs it.
    `script-src 'self' 'nonce-${options.nonce}' 'strict-dynamic'${options.development ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    `form-action ${formTargets[options.formTargets ?? "self"]}`,
    "frame-ancestors 'none'",
    ...(options.https ? ["upgrade-insecure-requests"] : []),
  ].join("; ");
  return { "Content-Security-Policy": policy, ...otherHeaders(options.https) };
}

/**
 * Headers every API answer (under /api/) carries: data, never a document to render, so its policy
 * lets it load nothing and be framed nowhere. The route wrappers set them (lib/http/route.ts): the
 * proxy, which sets the pages' headers, does not run for the API (proxy.ts).
 */
export function apiSecurityHeaders(https: boolean): Record<string, string> {
  return { "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'", ...otherHeaders(https) };
}

function otherHeaders(https: boolean): Record<string, string> {
  return {
    // For browsers without CSP level 2; frame-ancestors says the same.
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    // Paylink and checkout URLs are bearer links: never send them to another site.
    "Referrer-Policy": "same-origin",
    ...(https ? { "Strict-Transport-Security": "max-age=63072000; includeSubDomains" } : {}),
  };
}
