import { nonceHeader } from "@/lib/http/security-headers";

// Scalar's standalone bundle renders the interactive reference. It loads from this app (see
// reference.js), not a CDN, so it works without internet access, and both script tags carry the
// request's CSP nonce. Its web fonts and its AI agent (which loads a registry through
// proxy.scalar.com) would reach other sites, which the CSP refuses: both are off.
const configuration = JSON.stringify({
  url: "/api/openapi.json",
  withDefaultFonts: false,
  agent: { disabled: true },
});

export function GET(request: Request) {
  const nonce = request.headers.get(nonceHeader) ?? "";
  return new Response(
    `<!doctype html>
<html lang="en">
  <head>
    <title>API reference</title>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
  </head>
  <body>
    <div id="app"></div>
    <script src="/docs/api/reference.js" nonce="${nonce}"></script>
    <script nonce="${nonce}">Scalar.createApiReference("#app", ${configuration});</script>
  </body>
</html>`,
    { headers: { "Content-Type": "text/html; charset=utf-8" } },
  );
}
