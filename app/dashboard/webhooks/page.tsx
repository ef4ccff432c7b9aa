import type { Metadata } from "next";
import Link from "next/link";
import { buttonStyles } from "@/components/ui/button-styles";
import { Card } from "@/components/ui/card";
import { DateTime } from "@/components/ui/date-time";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { StatusBadge } from "@/components/ui/status-badge";
import { CreateEndpointForm } from "@/components/webhooks/create-endpoint-form";
import { EndpointActions, SendTestEventForm } from "@/components/webhooks/endpoint-actions";
import { db } from "@/lib/db/client";
import { eventTypes } from "@/lib/events/record-event";
import { requireMember } from "@/lib/http/dashboard-session";
import { listWebhookEndpoints } from "@/lib/webhooks/list-webhook-endpoints";
import { serializeWebhookEndpoint } from "@/lib/webhooks/serialize-webhook";
import { createWebhookEndpointAction, sendTestEventAction } from "./actions";
import { endpointChangeActions } from "./endpoint-change-actions";

export const metadata: Metadata = { title: "Webhooks" };

const linkStyles = "font-medium text-brand-600 hover:underline";

export default async function WebhooksPage() {
  const member = await requireMember();
  const isOwner = member.role === "OWNER";
  const endpoints = (await listWebhookEndpoints(db(), member.organization.id)).map(serializeWebhookEndpoint);
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Endpoints on your servers that we notify, with a signed request, when something happens."
        actions={
          <a className={buttonStyles.secondary} href="/docs/api">
            API reference
          </a>
        }
      />
      <div className="flex flex-col gap-6">
        <Card title="Endpoints">
          {endpoints.length === 0 ? (
            <EmptyState title="No webhook endpoints yet">
              <p>
                A webhook is an HTTP POST we send to your server the moment something happens: an invoice is
                created, a payment is confirmed, an invoice goes overdue. Fulfil orders on{" "}
                <code className="font-mono text-xs">payment.confirmed</code>, and check each request&apos;s{" "}
                <code className="font-mono text-xs">X-Service-Signature</code> with the endpoint&apos;s
                signing secret so you know it came from us.
              </p>
              <p className="mt-3">
                Add an endpoint below, then send it a test event. The webhooks guide (
                <code className="font-mono text-xs">docs/webhooks.md</code>) has verification code for Node.js
                and Python; every endpoint is in the{" "}
                <a className={linkStyles} href="/docs/api">
                  API reference
                </a>
                .
              </p>
            </EmptyState>
          ) : (
            <ul className="divide-y divide-slate-100">
              {endpoints.map((endpoint) => (
                <li key={endpoint.id} className="flex flex-col gap-3 px-5 py-4">
                  <div className="flex min-w-0 flex-col gap-1">
                    <div className="flex flex-wrap items-center gap-2">
                      <Link className={`${linkStyles} text-base`} href={`/dashboard/webhooks/${endpoint.id}`}>
                        {endpoint.name}
                      </Link>
                      <StatusBadge status={endpoint.enabled ? "ENABLED" : "DISABLED"} />
                      <span className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-600">
                        {endpoint.adapter}
                      </span>
                    </div>
                    <code className="break-all font-mono text-sm text-slate-700">{endpoint.url}</code>
                    <p className="text-xs text-slate-500">
                      Created <DateTime value={endpoint.createdAt} precision="seconds" />
                      {endpoint.isDefault ? " · the webhook URL of your organization settings" : ""}
                    </p>
                  </div>
                  <div className="flex flex-wrap items-start gap-2">
                    <SendTestEventForm
                      action={sendTestEventAction}
                      endpoint={endpoint}
                      eventTypes={eventTypes}
                      linkToLog
                    />
                    {isOwner ? <EndpointActions actions={endpointChangeActions} endpoint={endpoint} /> : null}
                  </div>
                </li>
              ))}
            </ul>
          )}
        </Card>
        <Card title="Add an endpoint" description="Its signing secret is shown once, right after you add it.">
          <div className="px-5 py-5">
            {isOwner ? (
              <CreateEndpointForm action={createWebhookEndpointAction} />
            ) : (
              <p className="text-sm text-slate-500">
                Only owners of {member.organization.name} can add, change and delete webhook endpoints.
              </p>
            )}
          </div>
        </Card>
      </div>
    </>
  );
}
