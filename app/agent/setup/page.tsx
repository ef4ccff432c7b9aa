import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { AgentSetupDecision } from "@/components/dashboard/agent-setup-decision";
import { AuthCard } from "@/components/dashboard/auth-card";
import { findAgentSetupByCode } from "@/lib/agent-access/find-agent-setup-by-code";
import { db } from "@/lib/db/client";
import { findMember } from "@/lib/http/dashboard-session";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Connect an agent" };

const accessInWords = {
  READ: "Read only: see paylinks, payments and settings",
  WRITE: "Read and write: also create paylinks and checkout sessions, change settings and webhooks",
} as const;

const closed = {
  expired: "This setup has expired. Start it again from your agent.",
  already_decided: "This setup was already approved or denied. Start a new one from your agent if needed.",
} as const;

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

/** The browser half of agent setup: a signed-in owner checks the code and approves or denies. */
export default async function AgentSetupPage({ searchParams }: { searchParams: Promise<{ code?: string }> }) {
  const { code } = await searchParams;
  const member = await findMember();
  if (!member) redirect(`/login?callbackUrl=${encodeURIComponent(`/agent/setup?code=${code ?? ""}`)}`);

  const found = await findAgentSetupByCode(db(), code);
  if (!found) return <Message>No agent setup has this code. Check the link your agent printed.</Message>;
  if (found.outcome !== "decide") return <Message>{closed[found.outcome]}</Message>;

  const owned = member.memberships.filter((m) => m.role === "OWNER").map((m) => m.organization);
  if (owned.length === 0) {
    return (
      <Message>
        Only an owner of an organization can connect agents to it. Ask an owner to open this link.
      </Message>
    );
  }
  const initial = owned.find((o) => o.id === member.organization.id) ?? owned[0];
  const { setup } = found;

  return (
    <AuthCard title="Connect an agent">
      <p className="mb-4 text-sm text-slate-600">
        An agent asks for its own credential. Approve only if you started this and the code matches the one
        your agent shows.
      </p>
      <dl className="mb-5 grid grid-cols-3 gap-x-3 gap-y-2 text-sm">
        <dt className="text-slate-500">Agent</dt>
        <dd className="col-span-2 break-words font-medium text-slate-900">{setup.agentName}</dd>
        <dt className="text-slate-500">Code</dt>
        <dd className="col-span-2 font-mono font-medium text-slate-900" data-testid="user-code">
          {code?.toUpperCase()}
        </dd>
        <dt className="text-slate-500">Access</dt>
        <dd className="col-span-2 text-slate-900">{accessInWords[setup.access]}</dd>
        {owned.length === 1 ? (
          <>
            <dt className="text-slate-500">Organization</dt>
            <dd className="col-span-2 break-words text-slate-900">{initial.name}</dd>
          </>
        ) : null}
      </dl>
      <AgentSetupDecision userCode={code ?? ""} organizations={owned} initialOrganizationId={initial.id} />
    </AuthCard>
  );
}
