import { NextResponse } from "next/server";
import { confirmAgentRegistration } from "@/lib/agent-access/confirm-agent-registration";
import { startAuthSession } from "@/lib/auth/session-cookie";
import { config } from "@/lib/config";
import { db } from "@/lib/db/client";
import { ServiceError } from "@/lib/errors";
import { readBodyText } from "@/lib/http/read-json";
import { publicApiRoute } from "@/lib/http/route";
import { assertSameOrigin } from "@/lib/http/same-origin";

// The confirmation page's form posts here: provision, sign the owner in, open the new dashboard.
// A refusal goes back to the page, which says what happened.
export const POST = publicApiRoute(async ({ request }) => {
  assertSameOrigin(request.headers);
  // Read as every body is: bounded (413 past it) and a body cut off mid-upload a 400, never a 500.
  const form = new URLSearchParams(await readBodyText(request, 4096));
  const token = form.get("token");
  const { baseUrl } = config();
  try {
    const { user } = await confirmAgentRegistration(db(), {
      confirmToken: token,
      pairingCode: form.get("pairingCode"),
    });
    const session = await startAuthSession(db(), user.id);
    const response = NextResponse.redirect(`${baseUrl}/dashboard`, 303);
    response.cookies.set(session.name, session.value, session.options);
    return response;
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    const page = new URL(`${baseUrl}/agent/register/confirm`);
    page.searchParams.set("token", token ?? "");
    page.searchParams.set("error", error.code);
    return NextResponse.redirect(page, 303);
  }
});
