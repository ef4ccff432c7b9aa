import type { NextRequest } from "next/server";
import { assertEmailSendAllowed } from "../auth/limit-email-sends";
import { config } from "../config";
import { invalidRequest, toServiceError } from "../errors";
import { clientAddress } from "../net/client-address";
import { recipientEmailField } from "../validation/fields";
import { readBodyText } from "./read-json";
import { requestIdFor } from "./request-id";

type Handler<C> = (request: NextRequest, context: C) => Promise<Response>;

const maxFormBytes = 8 * 1024;

/** The email of next-auth's sign-in form (form-encoded from its client, or JSON), checked. */
async function signInEmail(request: Request): Promise<string> {
  const text = await readBodyText(request, maxFormBytes);
  let email: unknown;
  if (request.headers.get("content-type")?.includes("application/json")) {
    try {
      email = (JSON.parse(text) as { email?: unknown })?.email;
    } catch {
      email = undefined;
    }
  } else email = new URLSearchParams(text).get("email");
  const parsed = recipientEmailField.safeParse(email);
  if (!parsed.success) throw invalidRequest("invalid_email", "Enter one valid email address.", "email");
  return parsed.data;
}

/**
 * next-auth's routes, with an email sign-in request checked before next-auth creates a token or
 * sends anything: one valid address (the invitations' field) and the email limits per client
 * and per address. A refusal answers as next-auth answers its client, `{url}` of the sign-in
 * page naming the error, with the real status (400, 413, 429 with Retry-After).
 */
export function signInRoute<C>(handler: Handler<C>): Handler<C> {
  return async (request, context) => {
    if (request.method !== "POST" || !request.nextUrl.pathname.endsWith("/signin/email"))
      return handler(request, context);
    try {
      const email = await signInEmail(request.clone());
      await assertEmailSendAllowed({ clientAddress: clientAddress(request.headers), email });
    } catch (error) {
      const known = toServiceError(error, requestIdFor(request.headers));
      const page = known.status === 429 ? "TooManyEmails" : "InvalidEmail";
      return Response.json(
        {
          url: `${config().baseUrl}/login?error=${page}`,
          error: { type: known.type, code: known.code, message: known.message },
        },
        { status: known.status, headers: known.headers },
      );
    }
    return handler(request, context);
  };
}
