import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthCard } from "@/components/dashboard/auth-card";
import { OrganizationSelect } from "@/components/dashboard/organization-select";
import { buttonStyles } from "@/components/ui/button-styles";
import { db } from "@/lib/db/client";
import { findMember, recentSignInMs, signedInAt } from "@/lib/http/dashboard-session";
import { isClientMetadataUrl } from "@/lib/oauth/fetch-client-metadata-document";
import { authorizationRequestSchema } from "@/lib/oauth/oauth-schemas";
import { signAuthorization } from "@/lib/oauth/signed-authorization";
import { validateAuthorizationRequest } from "@/lib/oauth/validate-authorization-request";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Connect an app" };

type Search = Record<string, string | string[] | undefined>;

// GET /oauth/authorize (RFC 6749 4.1.1): the request is checked, the user signs in if needed,
// and the consent form carries a server-signed copy of the checked request to the approval POST.
export default async function AuthorizePage({ searchParams }: { searchParams: Promise<Search> }) {
  const search = await searchParams;
  // Checking a request may fetch a client's metadata document: proxy.ts counts this page against
  // the caller's public budget and answers 429 before it renders.
  const parsed = authorizationRequestSchema.safeParse(search);
  if (!parsed.success) {
    return (
      <Refused message="The authorization request is malformed (client_id missing or a parameter repeated)." />
    );
  }
  const check = await validateAuthorizationRequest(db(), parsed.data);
  if (check.kind === "refuse") return <Refused message={check.message} />;
  const member = await findMember();
  if (check.kind === "redirect") {
    // Anyone can register a client or publish a metadata document: redirecting a signed-out
    // visitor to its redirect_uri would make this server an open redirector.
    if (!member) return <Refused message={check.message} />;
    redirect(check.location);
  }
  if (!member) {
    const back = `/oauth/authorize?${new URLSearchParams(search as Record<string, string>)}`;
    redirect(`/login?callbackUrl=${encodeURIComponent(back)}`);
  }
  const signed = signAuthorization({
    clientId: check.client.id,
    redirectUri: check.redirectUri,
    codeChallenge: check.codeChallenge,
    scope: check.scope,
    resource: check.resource,
    state: check.state,
    userId: member.user.id,
  });
  // Only owners may grant write: a member's consent offers read, and the form says so.
  const ownsCurrent = member.memberships.some(
    (m) => m.organization.id === member.organization.id && m.role === "OWNER",
  );
  const downgraded = check.scope.includes("write") && !ownsCurrent;
  const writes = check.scope.includes("write") && !downgraded;
  // Write access acts for an owner: a session older than 10 minutes signs in again first and comes
  // back here (the approval refuses it otherwise, lib/oauth/approve-authorization.ts).
  const signedIn = await signedInAt();
  if (writes && (!signedIn || Date.now() - signedIn.getTime() > recentSignInMs)) {
    const back = `/oauth/authorize?${new URLSearchParams(search as Record<string, string>)}`;
    redirect(`/login?reauth=1&callbackUrl=${encodeURIComponent(back)}`);
  }
  const organizations = member.memberships.map((m) => m.organization);
  // A client_id that is a URL names a metadata document anyone can publish: say whose it is.
  const documentHost = isClientMetadataUrl(check.client.id) ? new URL(check.client.id).host : null;

  return (
    <AuthCard title={`Connect ${check.client.name}?`}>
      <p className="text-sm text-slate-600">
        <strong className="font-semibold text-slate-900">{check.client.name}</strong> wants to act for you
        through the MCP server. After you approve, it continues at{" "}
        <strong className="font-semibold text-slate-900">{new URL(check.redirectUri).host}</strong>.
      </p>
      {documentHost ? (
        <p className="mt-3 text-sm text-slate-600" data-testid="consent-client-host">
          The app describes itself at <strong className="font-semibold text-slate-900">{documentHost}</strong>{" "}
          <span className="rounded bg-amber-100 px-1.5 py-0.5 text-xs font-semibold text-amber-800">
            Unverified
          </span>{" "}
          Its name is what that site says; connect it only if you trust {documentHost}.
        </p>
      ) : null}
      <div
        className="mt-4 rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-700"
        data-testid="consent-access"
      >
        {writes
          ? "Read and write: see and create checkout sessions, paylinks, payments and webhooks, and change settings."
          : "Read only: see checkout sessions, paylinks, payments and webhooks. It cannot change anything."}
      </div>
      {downgraded ? (
        <p className="mt-2 text-sm text-slate-600" data-testid="consent-read-only-reason">
          The app asked for write access too, but you are a member of {member.organization.name}, not an
          owner: only owners can let an app make changes, so it gets read access.
        </p>
      ) : null}
      <form method="post" action="/oauth/authorize/decision" className="mt-5 flex flex-col gap-4">
        <input type="hidden" name="request" value={signed} />
        {downgraded ? <input type="hidden" name="scope" value="read" /> : null}
        {organizations.length > 1 ? (
          <OrganizationSelect
            organizations={organizations}
            name="organizationId"
            defaultValue={member.organization.id}
          />
        ) : (
          <>
            <input type="hidden" name="organizationId" value={member.organization.id} />
            <p className="text-sm text-slate-600">
              Organization:{" "}
              <strong className="font-semibold text-slate-900">{member.organization.name}</strong>
            </p>
          </>
        )}
        <p className="text-xs text-slate-500">
          Signed in as {member.user.email}. You can disconnect it any time under Connected apps.
        </p>
        <div className="flex gap-3">
          <button type="submit" name="decision" value="approve" className={buttonStyles.primary}>
            Approve
          </button>
          <button type="submit" name="decision" value="deny" className={buttonStyles.secondary}>
            Deny
          </button>
        </div>
      </form>
    </AuthCard>
  );
}

function Refused({ message }: { message: string }) {
  return (
    <AuthCard title="This app cannot connect">
      <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
        {message}
      </p>
      <p className="mt-4 text-sm text-slate-600">
        Nothing was shared. Start the connection again from the app.
      </p>
    </AuthCard>
  );
}
