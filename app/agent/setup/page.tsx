import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { AgentSetupDecision } from "@/components/dashboard/agent-setup-decision";
import { AuthCard } from "@/components/dashboard/auth-card";
import { findMember } from "@/lib/http/dashboard-session";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Connect an agent" };

function Message({ children }: { children: string }) {
  return (
    <AuthCard title="Connect an agent">
      <p role="alert" className="text-sm text-slate-600">
        {children}
      </p>
      <Link
        className="mt-5 inline-block text-sm font-medium text-brand-600 hover:underline"
        href="/dashboard"
      >
        Go to the dashboard
      </Link>
    </AuthCard>
  );
}

/**
 * The browser half of agent setup, at a fixed address: a signed-in owner types the code the agent
 * printed, checks what it asks for, and approves or denies. No link can fill the code in, so a
 * code someone else started cannot be slipped to an owner (RFC 8628 section 5.4).
 */
export default async function AgentSetupPage() {
  const member = await findMember();
  if (!member) redirect(`/login?callbackUrl=${encodeURIComponent("/agent/setup")}`);

  const owned = member.memberships.filter((m) => m.role === "OWNER").map((m) => m.organization);
  if (owned.length === 0) {
    return (
      <Message>
        Only an owner of an organization can connect agents to it. Ask an owner to approve the agent.
      </Message>
    );
  }
  const initial = owned.find((o) => o.id === member.organization.id) ?? owned[0];
  return (
    <AuthCard title="Connect an agent">
      <AgentSetupDecision organizations={owned} initialOrganizationId={initial.id} />
    </AuthCard>
  );
}
