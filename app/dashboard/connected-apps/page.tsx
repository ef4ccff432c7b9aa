import type { Metadata } from "next";
import { ListCard } from "@/components/dashboard/list-card";
import { ConfirmAction } from "@/components/ui/confirm-action";
import { DateTime } from "@/components/ui/date-time";
import { PageHeader } from "@/components/ui/page-header";
import { config } from "@/lib/config";
import { db } from "@/lib/db/client";
import { requireMember } from "@/lib/http/dashboard-session";
import { listGrants } from "@/lib/oauth/list-grants";
import { revokeGrantAction } from "./actions";

export const metadata: Metadata = { title: "Connected apps" };

type Grant = Awaited<ReturnType<typeof listGrants>>[number];

export default async function ConnectedAppsPage() {
  const member = await requireMember();
  const grants = await listGrants(db(), member.organization.id);
  return (
    <>
      <PageHeader
        title="Connected apps"
        description={`AI agents and tools that signed in through ${config().baseUrl}/mcp and act for ${member.organization.name}.`}
      />
      <ListCard<Grant>
        title="Apps"
        description="Disconnecting an app stops its next request; it has to ask again."
        caption="Connected apps, newest first"
        rows={grants}
        rowKey={(grant) => grant.id}
        columns={[
          {
            header: "App",
            cell: (grant) => (
              <span
                className="block max-w-[12rem] truncate font-medium text-slate-900"
                title={grant.client.id}
              >
                {grant.client.name}
              </span>
            ),
          },
          { header: "Approved by", cell: (grant) => grant.user.email },
          {
            header: "Access",
            cell: (grant) => (grant.scope.includes("write") ? "Read and write" : "Read only"),
          },
          {
            header: "Connected",
            cell: (grant) => <DateTime value={grant.createdAt} precision="date" />,
          },
          {
            header: "Last used",
            cell: (grant) =>
              grant.lastUsedAt ? (
                <DateTime value={grant.lastUsedAt} precision="date" />
              ) : (
                <span className="text-slate-400">Never</span>
              ),
          },
          {
            header: "Actions",
            cell: (grant) => (
              <ConfirmAction
                action={revokeGrantAction}
                label="Disconnect"
                question={`${grant.client.name} loses access at once.`}
                confirmLabel="Yes, disconnect"
                fields={{ grantId: grant.id }}
              />
            ),
          },
        ]}
        emptyTitle="No connected apps"
        empty={
          <>
            Add {config().baseUrl}/mcp to an MCP client such as Claude Code, Cursor or VS Code and approve it
            here.
          </>
        }
      />
    </>
  );
}
