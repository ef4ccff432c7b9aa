import type { Metadata } from "next";
import { CodeBlock } from "@/components/code-block";
import { CreateApiKeyForm } from "@/components/dashboard/create-api-key-form";
import { ListCard } from "@/components/dashboard/list-card";
import { Card } from "@/components/ui/card";
import { ConfirmAction } from "@/components/ui/confirm-action";
import { DateTime } from "@/components/ui/date-time";
import { PageHeader } from "@/components/ui/page-header";
import { StatusBadge } from "@/components/ui/status-badge";
import { getApiKeyStatus } from "@/lib/api-keys/get-api-key-status";
import { config } from "@/lib/config";
import { db } from "@/lib/db/client";
import { requireMember } from "@/lib/http/dashboard-session";
import { createApiKeyAction, revokeApiKeyAction } from "./actions";

export const metadata: Metadata = { title: "API keys" };

type Key = Awaited<ReturnType<typeof getApiKeyStatus>>["keys"][number];

export default async function ApiKeysPage() {
  const member = await requireMember();
  const { keys } = await getApiKeyStatus(db(), member.organization.id);
  const isOwner = member.role === "OWNER";
  const { baseUrl } = config();

  return (
    <>
      <PageHeader
        title="API keys"
        description="Your servers call the API with a secret key in the Authorization header. Keep keys on servers only, never in a browser or an app."
      />
      <div className="flex flex-col gap-6">
        <ListCard<Key>
          title="Keys"
          description="A key is shown in full only once, when it is created."
          caption="API keys, newest first"
          rows={keys}
          rowKey={(key) => key.id}
          columns={[
            {
              header: "Name",
              cell: (key) => (
                <span
                  className="block max-w-[9rem] truncate font-medium text-slate-900 sm:max-w-xs"
                  title={key.name}
                >
                  {key.name}
                </span>
              ),
            },
            {
              header: "Key",
              cell: (key) => <code className="font-mono text-xs">{key.prefix}…</code>,
            },
            { header: "Status", cell: (key) => <StatusBadge status={key.status} /> },
            {
              header: "Created",
              cell: (key) => <DateTime value={key.createdAt} precision="date" />,
            },
            {
              header: "Last used",
              cell: (key) =>
                key.lastUsedAt ? (
                  <DateTime value={key.lastUsedAt} precision="date" />
                ) : (
                  <span className="text-slate-400">Never</span>
                ),
            },
            ...(isOwner
              ? [
                  {
                    header: "Actions",
                    cell: (key: Key) =>
                      key.status === "active" ? (
                        <ConfirmAction
                          action={revokeApiKeyAction}
                          label="Revoke"
                          question={`Requests with ${key.prefix}… will fail at once.`}
                          confirmLabel="Yes, revoke"
                          fields={{ apiKeyId: key.id }}
                        />
                      ) : null,
                  },
                ]
              : []),
          ]}
          emptyTitle="No API keys"
          empty="Create a key to create checkout sessions and paylinks from your server."
        />
        <Card title="New key">
          <div className="max-w-3xl p-5">
            {isOwner ? (
              <CreateApiKeyForm action={createApiKeyAction} baseUrl={baseUrl} />
            ) : (
              <p className="text-sm text-slate-500">
                Only owners of {member.organization.name} can create and revoke keys. Ask an owner for one.
              </p>
            )}
          </div>
        </Card>
        <Card
          title="Try a key"
          description="Any request with a live key answers; this one reads your organization."
        >
          <div className="max-w-3xl p-5">
            <CodeBlock>{`curl ${baseUrl}/api/private/organization/current \\\n  -H "Authorization: Bearer sk_live_…"`}</CodeBlock>
          </div>
        </Card>
      </div>
    </>
  );
}
