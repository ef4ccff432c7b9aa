import type { NextRequest } from "next/server";
import type { z } from "zod";
import { invalidRequest, ServiceError, toServiceError } from "../errors";
import { clientAddress, clientLimitKey } from "../net/client-address";
import { consumeRateLimit } from "../rate-limit/rate-limit";
import { assertStorableInput } from "../validation/storable-text";
import { readBodyText } from "./read-json";
import { type PublicContext, publicRoute, type Reply } from "./route";

// The caller kind of the OAuth endpoints (RFC 6749/7009/7591/8414/9728): anyone may call them,
// rate limited per client address; answers are never cached and errors use the RFC body shape
// `{ error, error_description }` instead of the service's error envelope.

const corsHeaders = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
  "Access-Control-Allow-Headers": "Authorization, Content-Type, MCP-Protocol-Version",
};

function rfcError(error: ServiceError): Response {
  // Only codes the RFCs define leave here; anything else says what class of problem it was.
  // A lost database (503, with Retry-After) is temporary too.
  const code =
    error.status === 429 || error.status === 503
      ? "temporarily_unavailable"
      : error.status >= 500
        ? "server_error"
        : error.code;
  const headers = new Headers(error.headers);
  if (error.status === 401) headers.set("WWW-Authenticate", 'Basic realm="oauth"');
  return Response.json({ error: code, error_description: error.message }, { status: error.status, headers });
}

/** An OAuth endpoint. Browsers of other sites may call it (CORS), as MCP clients in browsers do. */
export function oauthRoute<P = Record<string, never>>(
  handler: (context: PublicContext<P>) => Promise<Reply | Response>,
) {
  return publicRoute<P>(async (context) => {
    let response: Response;
    try {
      await consumeRateLimit("publicIp", clientLimitKey(clientAddress(context.request.headers)));
      const reply = await handler(context);
      response =
        reply instanceof Response
          ? reply
          : Response.json(reply.body, { status: reply.status ?? 200, headers: reply.headers });
    } catch (error) {
      response = rfcError(toServiceError(error, context.requestId));
    }
    response.headers.set("Cache-Control", "no-store");
    for (const [name, value] of Object.entries(corsHeaders)) response.headers.set(name, value);
    return response;
  });
}

/** The CORS preflight answer of an OAuth endpoint. */
export function oauthPreflight(): Response {
  return new Response(null, { status: 204, headers: { ...corsHeaders, "Access-Control-Max-Age": "86400" } });
}

/**
 * An OAuth request's parameters: form-encoded as RFC 6749 requires, or JSON, which some clients
 * send. Repeated parameters are refused (RFC 6749 3.1).
 */
export async function readOAuthParameters<S extends z.ZodType>(
  request: NextRequest,
  schema: S,
  // RFC 7591 names a bad registration `invalid_client_metadata`; RFC 6749 says `invalid_request`.
  errorCode = "invalid_request",
): Promise<z.output<S>> {
  const invalidRequestOAuth = (description: string) => invalidRequest(errorCode, description);
  // Read as readJson reads: stopped at the size limit, a body cut off is the client's doing.
  const text = await readBodyText(request).catch((error: unknown) => {
    throw error instanceof ServiceError ? invalidRequestOAuth(error.message) : error;
  });
  const contentType = request.headers.get("content-type") ?? "";
  let parameters: Record<string, unknown>;
  if (/^application\/json/i.test(contentType)) {
    try {
      parameters = JSON.parse(text);
    } catch {
      throw invalidRequestOAuth("The request body is not valid JSON.");
    }
  } else if (/^application\/x-www-form-urlencoded/i.test(contentType)) {
    const form = new URLSearchParams(text);
    parameters = {};
    for (const [name, value] of form) {
      if (name in parameters) throw invalidRequestOAuth(`Parameter ${name} is repeated.`);
      parameters[name] = value;
    }
  } else {
    throw invalidRequestOAuth("Send the parameters as application/x-www-form-urlencoded.");
  }
  try {
    assertStorableInput(parameters);
  } catch (error) {
    throw error instanceof ServiceError ? invalidRequestOAuth(error.message) : error;
  }
  const parsed = schema.safeParse(parameters);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = issue.path.join(".");
    if (name === "grant_type")
      throw invalidRequest(
        "unsupported_grant_type",
        "grant_type must be authorization_code or refresh_token.",
      );
    throw invalidRequestOAuth(name ? `Invalid or missing ${name}: ${issue.message}` : issue.message);
  }
  return parsed.data;
}
