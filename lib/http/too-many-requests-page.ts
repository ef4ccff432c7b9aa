import type { ServiceError } from "../errors";

/**
 * The page a browser gets when its client is over a limit: status 429 with the limiter's
 * Retry-After, and a short text that says so and when to try again. Plain HTML without scripts
 * or styles, so it needs nothing from the app that the refused request would have rendered.
 */
export function tooManyRequestsPage(refusal: ServiceError): Response {
  const retryAfter = Number(refusal.headers?.["Retry-After"] ?? 60);
  const wait = retryAfter === 1 ? "a second" : `${retryAfter} seconds`;
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>Too many requests</title></head>
<body>
<main>
<h1>Too many requests</h1>
<p role="alert">Too many requests from your network. Wait ${wait} and try again.</p>
</main>
</body>
</html>
`;
  return new Response(html, {
    status: 429,
    headers: {
      ...refusal.headers,
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
    },
  });
}
