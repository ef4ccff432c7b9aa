import type { NextRequest } from "next/server";
import { assertEmailSendAllowed } from "../auth/limit-email-sends";
import { config } from "../config";
import { type ErrorType, invalidRequest, methodNotAllowed, ServiceError } from "../errors";
import { clientAddress } from "../net/client-address";
import { recipientEmailField } from "../validation/fields";
import { assertStorableInput } from "../validation/storable-text";
import { errorEnvelope } from "./error-response";
import { readBodyText } from "./read-json";
import { requestIdFor } from "./request-id";
import { unknownApiPath } from "./route";
import { apiSecurityHeaders } from "./security-headers";

type Handler<C> = (request: NextRequest, context: C) => Promise<Response>;

/** next-auth's forms post a CSRF token, a callback URL and an email: far less than this. */
const maxFormBytes = 8 * 1024;

/** next-auth's actions (the path's first segment) and the methods it answers each with. */
const actionMethods: Record<string, string[]> = {
  providers: ["GET"],
  session: ["GET", "POST"],
  csrf: ["GET"],
  signin: ["GET", "POST"],
  signout: ["GET", "POST"],
  callback: ["GET", "POST"],
  "verify-request": ["GET"],
  error: ["GET"],
  _log: ["POST"],
};

/**
 * The fields of a form next-auth reads: JSON (which next-auth parses itself and would fail on
 * with a 500) or form-encoded from its client; any other body next-auth ignores.
 */
function formFields(request: Request, text: string): Record<string, unknown> {
  const type = request.headers.get("content-type") ?? "";
  if (type.includes("application/json")) {
    try {
      const fields: unknown = JSON.parse(text);
      return fields !== null && typeof fields === "object" ? (fields as Record<string, unknown>) : {};
    } catch {
      throw invalidRequest("invalid_json", "The request body is not valid JSON.");
    }
  }
  return type.includes("application/x-www-form-urlencoded")
    ? Object.fromEntries(new URLSearchParams(text))
    : {};
}

/** The email of next-auth's sign-in form, checked. */
function signInEmail(fields: Record<string, unknown>): string {
  const parsed = recipientEmailField.safeParse(fields.email);
  if (!parsed.success) throw invalidRequest("invalid_email", "Enter one valid email address.", "email");
  return parsed.data;
}

const typeOf: Record<number, ErrorType> = {
  401: "authentication_error",
  403: "permission_error",
  404: "not_found_error",
};

/** What an error answer of next-auth's (its own text, or none) becomes: our code and message. */
function ownAnswerFor(status: number): ServiceError {
  if (status >= 500) {
    return new ServiceError(
      503,
      "api_error",
      "sign_in_unavailable",
      "Sign-in is briefly unavailable. Try again shortly.",
      undefined,
      { "Retry-After": "5" },
    );
  }
  return new ServiceError(
    status,
    typeOf[status] ?? "invalid_request_error",
    "sign_in_request_invalid",
    "The sign-in request could not be used. Reload the sign-in page and try again.",
  );
}

/** The error envelope with the API's headers; `extra` fields go beside it (next-auth's `url`). */
function refusal(request: NextRequest, error: unknown, extra: Record<string, unknown> = {}): Response {
  const requestId = requestIdFor(request.headers);
  const { status, headers, body } = errorEnvelope(error, requestId, { privateApi: false });
  return Response.json(
    { ...extra, ...body },
    {
      status,
      headers: {
        ...headers,
        ...apiSecurityHeaders(config().baseUrl.startsWith("https:")),
        "Cache-Control": "no-store",
        "X-Request-Id": requestId,
      },
    },
  );
}

/**
 * next-auth's routes (email links, their callback, sign-out, the CSRF token, the session), with
 * every error in the API's envelope instead of next-auth's own text: an action it does not have
 * is 404 `unknown_path`, a method an action does not take 405 with Allow, a body over 8 KiB 413,
 * JSON it could not parse or text with NUL 400, and any other error it answers (or throws) our
 * short code. An email sign-in request is checked
 * before next-auth creates a token or sends anything: one valid address (the invitations' field,
 * else 400 naming `email`) and the email limits per client and per address (429 with
 * Retry-After). Those refusals also carry `url`, the sign-in page naming the error, which
 * next-auth's client follows. Redirects and successes are next-auth's own.
 */
export function signInRoute<C>(handler: Handler<C>): Handler<C> {
  return async (request, context) => {
    const segments = request.nextUrl.pathname.split("/").slice(3);
    const methods = actionMethods[segments[0] ?? ""];
    if (!methods) return refusal(request, unknownApiPath(request));
    if (!methods.includes(request.method)) {
      const allow = [...methods, ...(methods.includes("GET") ? ["HEAD"] : []), "OPTIONS"].sort().join(", ");
      return refusal(request, methodNotAllowed(request.method, allow));
    }
    let response: Response;
    try {
      if (request.method === "POST") {
        const fields = formFields(request, await readBodyText(request.clone(), maxFormBytes));
        assertStorableInput(fields);
        if (segments[0] === "signin" && segments[1] === "email") {
          try {
            const email = signInEmail(fields);
            await assertEmailSendAllowed({ clientAddress: clientAddress(request.headers), email });
          } catch (error) {
            const page =
              error instanceof ServiceError && error.status === 429 ? "TooManyEmails" : "InvalidEmail";
            return refusal(request, error, { url: `${config().baseUrl}/login?error=${page}` });
          }
        }
      }
      response = await handler(request, context);
    } catch (error) {
      return refusal(request, error);
    }
    if (response.status < 400) return response;
    // next-auth's own error answers are its text ("[object Object]", "…not supported by NextAuth.js").
    return refusal(request, ownAnswerFor(response.status));
  };
}
