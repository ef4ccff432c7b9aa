import { db } from "@/lib/db/client";
import { invalidRequest, unauthenticated } from "@/lib/errors";
import { findMember, signedInAt } from "@/lib/http/dashboard-session";
import { readOAuthParameters } from "@/lib/http/oauth-route";
import { publicRoute } from "@/lib/http/route";
import { assertSameOrigin } from "@/lib/http/same-origin";
import { approveAuthorization } from "@/lib/oauth/approve-authorization";
import { authorizationRedirect } from "@/lib/oauth/authorization-redirect";
import { consentDecisionSchema } from "@/lib/oauth/oauth-schemas";
import { verifyAuthorization } from "@/lib/oauth/signed-authorization";

// The consent form's POST: only from our own page, by the user it was shown to, acting on the
// request exactly as it was checked and signed.
export const POST = publicRoute(async ({ request }) => {
  assertSameOrigin(request.headers);
  const member = await findMember();
  if (!member)
    throw unauthenticated("signed_out", "Your session has ended. Sign in and start again from the app.");
  const input = await readOAuthParameters(request, consentDecisionSchema);
  const approved = verifyAuthorization(input.request, member.user.id);
  if (!approved) {
    throw invalidRequest(
      "consent_expired",
      "This consent page has expired. Start the connection again from the app.",
    );
  }
  const location =
    input.decision === "approve"
      ? await approveAuthorization(
          db(),
          { ...approved, scope: input.scope ?? approved.scope },
          input.organizationId ?? member.organization.id,
          await signedInAt(),
        )
      : authorizationRedirect(approved.redirectUri, { error: "access_denied" }, approved.state);
  return new Response(null, { status: 303, headers: { Location: location } });
});
