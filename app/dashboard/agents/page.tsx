import type { Metadata } from "next";
import { CodeBlock } from "@/components/code-block";
import { ListCard } from "@/components/dashboard/list-card";
import { Card } from "@/components/ui/card";
import { ConfirmAction } from "@/components/ui/confirm-action";
import { DateTime } from "@/components/ui/date-time";
import { PageHeader } from "@/components/ui/page-header";
import { StatusBadge } from "@/components/ui/status-badge";
import { listAgentCredentials } from "@/lib/agent-access/list-agent-credentials";
import { config } from "@/lib/config";
import { db } from "@/lib/db/client";
import { requireMember } from "@/lib/http/dashboard-session";
import { revokeAgentCredentialAction } from "./actions";

export const metadata: Metadata = { title: "Agents" };

type Agent = Awaited<ReturnType<typeof listAgentCredentials>>[number];

const accessLabel = { read: "Read only", write: "Read and write" } as const;

// Agents get credentials of their own through browser setup or signup; this page never shows the
// organization's API key, or any secret.
export default async function AgentsPage() {
  const member = await requireMember();
  const agents = await listAgentCredentials(db(), member.organization.id);
  const isOwner = member.role === "OWNER";

  return (
    <>
      <PageHeader
        title="Agents"
        description={`AI coding agents connected to ${member.organization.name}, each with a credential of its own. Revoking one cuts that agent off at once; nothing else changes. A credential ends with its approver's authority: removing the owner who approved it revokes it.`}
      />
      <div className="flex flex-col gap-6">
        <ListCard<Agent>
          title="Connected agents"
          caption="Connected agents, newest first"
          rows={agents}
          rowKey={(agent) => agent.id}
          columns={[
            {
              header: "Agent",
              cell: (agent) => (
                <span
                  className="block max-w-[9rem] truncate font-medium text-slate-900 sm:max-w-xs"
                  title={agent.agentName}
                >
                  {agent.agentName}
                </span>
              ),
            },
            { header: "Access", cell: (agent) => accessLabel[agent.access] },
            { header: "Status", cell: (agent) => <StatusBadge status={agent.status} /> },
            {
              header: "Approved by",
              cell: (agent) => agent.createdBy ?? <span className="text-slate-600">A former member</span>,
            },
            {
              header: "Created",
              cell: (agent) => <DateTime value={agent.createdAt} precision="date" />,
            },
            {
              header: "Last used",
              cell: (agent) =>
                agent.lastUsedAt ? (
                  <DateTime value={agent.lastUsedAt} />
                ) : (
                  <span className="text-slate-400">Never</span>
                ),
            },
            ...(isOwner
              ? [
                  {
                    header: "Actions",
                    cell: (agent: Agent) =>
                      agent.status === "active" ? (
                        <ConfirmAction
                          action={revokeAgentCredentialAction}
                          label="Revoke"
                          question={`${agent.agentName} loses access at once.`}
                          confirmLabel="Yes, revoke"
                          fields={{ agentCredentialId: agent.id }}
                        />
                      ) : null,
                  },
                ]
              : []),
          ]}
          emptyTitle="No agents connected"
          empty="Connect one from your agent with the command below; you approve it in this browser."
        />
        <Card
          title="Connect an agent"
          description="The agent asks for access; you approve it here in the browser. No key is copied anywhere."
        >
          <div className="max-w-3xl p-5">
            <CodeBlock>{`crypto-checkout setup --agent "My agent"\n\n# or over HTTP, then open the loginUrl it returns:\ncurl -X POST ${config().baseUrl}/api/agent/setup/start \\\n  -H "Content-Type: application/json" -d '{"agentName": "My agent"}'`}</CodeBlock>
          </div>
        </Card>
      </div>
    </>
  );
}
