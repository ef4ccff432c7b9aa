import { config } from "@/lib/config";
import { db } from "@/lib/db/client";
import { publicRoute } from "@/lib/http/route";
import { authorizationRequestSchema } from "@/lib/oauth/oauth-schemas";
import { validateAuthorizationRequest } from "@/lib/oauth/validate-authorization-request";

// GET /oauth/authorize for a visitor without a session (proxy.ts sends it here). Anyone can
// register a client or publish a metadata document, so a bad request is not redirected to the
// client before the user has signed in (RFC 9700 section 4.11.2): it gets an error page with a
// real 400, which a page cannot answer. A good request goes to sign-in and back to the consent page.
// proxy.ts counts the load against the client's public budget before it is sent here.
export const GET = publicRoute(async ({ request }) => {
  const params = request.nextUrl.searchParams;
  const names = [...params.keys()];
  const parsed = authorizationRequestSchema.safeParse(Object.fromEntries(params));
  if (!parsed.success || new Set(names).size !== names.length) {
    return refused(
      400,
      "The authorization request is malformed (client_id missing or a parameter repeated).",
    );
  }
  const check = await validateAuthorizationRequest(db(), parsed.data);
  if (check.kind !== "valid") return refused(400, check.message);
  const back = `/oauth/authorize?${params}`;
  const login = `${config().baseUrl}/login?callbackUrl=${encodeURIComponent(back)}`;
  return new Response(null, { status: 307, headers: { Location: login } });
});

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

function refused(status: number, message: string): Response {
  const body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>This app cannot connect · ${escapeHtml(config().serviceName)}</title></head>
<body><main><h1>This app cannot connect</h1><p role="alert">${escapeHtml(message)}</p>
<p>Nothing was shared. Start the connection again from the app.</p></main></body></html>`;
  return new Response(body, {
    status,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" },
  });
}
