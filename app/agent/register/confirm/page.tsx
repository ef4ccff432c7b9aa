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
  resource_missing: "This link is not valid. Check that you opened the whole link from the email.",
};

/**
 * The link in the agent signup email. Opening it changes nothing (mail scanners open links
 * too); the button below confirms.
 */
export default async function ConfirmAgentRegistrationPage({
  searchParams,
}: {
  searchParams: Promise<{ token?: string; error?: string }>;
}) {
  const { token, error } = await searchParams;
  const found = await findAgentRegistrationByLink(db(), token);
  const problem =
    (error && problems[error]) ??
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
        Your coding agent asked to create an account with this email. Confirming creates the organization,
        signs you in, and lets the agent collect its own credential.
      </p>
      <dl className="mb-5 grid grid-cols-3 gap-x-3 gap-y-2 text-sm">
        <dt className="text-slate-500">Email</dt>
        <dd className="col-span-2 break-words text-slate-900">{registration.email}</dd>
        <dt className="text-slate-500">Project</dt>
        <dd className="col-span-2 break-words font-medium text-slate-900">{registration.projectName}</dd>
        <dt className="text-slate-500">Agent</dt>
        <dd className="col-span-2 break-words text-slate-900">{registration.agentName}</dd>
      </dl>
      <form method="post" action="/api/auth/agent/register/confirm">
        <input type="hidden" name="token" value={token} />
        <button type="submit" className={`${buttonStyles.primary} w-full`}>
          Confirm and open the dashboard
        </button>
      </form>
    </AuthCard>
  );
}
