import type { ServiceError } from "../errors";

/**
 * A refusal as a page: plain HTML without scripts or styles, so it needs nothing from the app
 * that the refused request would have rendered (or that could not be routed at all).
 */
function plainPage(status: number, title: string, text: string, headers?: Record<string, string>): Response {
  return new Response(errorPageHtml(title, text), {
    status,
    headers: { ...headers, "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" },
  });
}

/** The error page's HTML, for a server that writes it itself (scripts/serve.ts). */
export function errorPageHtml(title: string, text: string): string {
  const escaped = text.replace(/[&<>"]/g, (character) => `&#${character.charCodeAt(0)};`);
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title></head>
<body>
<main>
<h1>${title}</h1>
<p role="alert">${escaped}</p>
</main>
</body>
</html>
`;
}

/**
 * The page a browser gets when its client is over a limit: status 429 with the limiter's
 * Retry-After, and a short text that says so and when to try again.
 */
export function tooManyRequestsPage(refusal: ServiceError): Response {
  const retryAfter = Number(refusal.headers?.["Retry-After"] ?? 60);
  const wait = retryAfter === 1 ? "a second" : `${retryAfter} seconds`;
  return plainPage(
    429,
    "Too many requests",
    `Too many requests from your network. Wait ${wait} and try again.`,
    refusal.headers,
  );
}

/** The page of a request refused before any page could handle it (a path that cannot be read). */
export function badRequestPage(refusal: ServiceError): Response {
  return plainPage(refusal.status, "Bad request", refusal.message, refusal.headers);
}

/** The development mailbox without its key (lib/http/dev-mailbox-guard.ts). */
export function devMailboxClosedPage(): Response {
  return plainPage(
    401,
    "Development mailbox",
    "The mailbox opens from the link the service printed when it started (npm start): /dev/mailbox?key=…. Ask whoever started it.",
  );
}
