import type { Metadata } from "next";
import Link from "next/link";
import { AuthCard } from "@/components/dashboard/auth-card";
import { buttonStyles } from "@/components/ui/button-styles";
import { findAgentRegistrationByLink } from "@/lib/agent-access/confirm-agent-registration";
import { db } from "@/lib/db/client";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Confirm your account" };

const problems: Record<string, string> = {
  account_exists: "This email already has an account. Sign in, then connect your agent with browser setup.",
  registration_expired: "This link has expired. Sign in, then connect your agent with browser setup.",
  registration_already_confirmed: "This account is already confirmed. Sign in to open your dashboard.",
  wrong_pairing_code: "That is not the pairing code your agent showed. Type the code your agent printed.",
  rate_limited:
    "Too many wrong pairing codes. Wait an hour, then try again with the code your agent printed.",
  resource_missing: "This link is not valid. Check that you opened the whole link from the email.",
};

/**
 * The link in the agent signup email. Opening it changes nothing (mail scanners open links
 * too); confirming needs the pairing code the agent showed its user, so the email alone (a
 * forwarded one, or one sent to an address the requester does not own) confirms nothing.
 */
export default async function ConfirmAgentRegistrationPage({
  searchParams,
}: {
  searchParams: Promise<{ token?: string; error?: string }>;
}) {
  const { token, error } = await searchParams;
  const found = await findAgentRegistrationByLink(db(), token);
  // A wrong pairing code is said above the form, which stays to try again.
  const retry = error === "wrong_pairing_code" ? problems[error] : null;
  const problem =
    (error && !retry && problems[error]) ||
    (!found
      ? problems.resource_missing
      : found.outcome === "expired"
        ? problems.registration_expired
        : found.outcome === "already_confirmed"
          ? problems.registration_already_confirmed
          : null);

  if (problem || !found) {
    return (
      <AuthCard title="Confirm your account">
        <p role="alert" className="text-sm text-slate-600">
          {problem}
        </p>
        <Link className="mt-5 inline-block text-sm font-medium text-brand-600 hover:underline" href="/login">
          Sign in
        </Link>
      </AuthCard>
    );
  }
  const { registration } = found;
  return (
    <AuthCard title="Confirm your account">
      <p className="mb-4 text-sm text-slate-600">
        A coding agent asked to create an account with this email. Confirming creates the organization, signs
        you in, and lets the agent collect its own credential. Confirm only if you asked your own agent for
        this: type the pairing code it showed you.
      </p>
      <dl className="mb-5 grid grid-cols-3 gap-x-3 gap-y-2 text-sm">
        <dt className="text-slate-500">Email</dt>
        <dd className="col-span-2 break-words text-slate-900">{registration.email}</dd>
        <dt className="text-slate-500">Project</dt>
        <dd className="col-span-2 break-words font-medium text-slate-900">{registration.projectName}</dd>
        <dt className="text-slate-500">Agent</dt>
        <dd className="col-span-2 break-words text-slate-900">{registration.agentName}</dd>
        <dt className="text-slate-500">Asked from</dt>
        <dd className="col-span-2 break-words font-mono text-slate-900">
          {registration.clientAddress ?? "unknown"}
        </dd>
      </dl>
      {retry ? (
        <p role="alert" className="mb-4 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
          {retry}
        </p>
      ) : null}
      <form method="post" action="/api/auth/agent/register/confirm" className="flex flex-col gap-4">
        <input type="hidden" name="token" value={token} />
        <label className="flex flex-col gap-1 text-sm font-medium text-slate-700">
          Pairing code from your agent
          <input
            name="pairingCode"
            required
            autoComplete="off"
            spellCheck={false}
            maxLength={20}
            placeholder="XXXX-XXXX"
            className="rounded-lg border border-slate-300 px-3 py-2 font-mono uppercase tracking-widest"
          />
        </label>
        <button type="submit" className={`${buttonStyles.primary} w-full`}>
          Confirm and open the dashboard
        </button>
      </form>
    </AuthCard>
  );
}
