import type { Metadata } from "next";
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { Card } from "@/components/ui/card";
import { DateTime } from "@/components/ui/date-time";
import { PageHeader } from "@/components/ui/page-header";
import { StatusBadge } from "@/components/ui/status-badge";
import { DeliveryLog } from "@/components/webhooks/delivery-log";
import { EndpointActions, SendTestEventForm } from "@/components/webhooks/endpoint-actions";
import { db } from "@/lib/db/client";
import { ServiceError } from "@/lib/errors";
import { eventTypes } from "@/lib/events/record-event";
import { requireMember } from "@/lib/http/dashboard-session";
import { pagingQuery } from "@/lib/validation/fields";
import { getWebhookEndpoint } from "@/lib/webhooks/get-webhook-endpoint";
import { listEndpointDeliveries } from "@/lib/webhooks/list-endpoint-deliveries";
import { serializeDeliveryPage, serializeWebhookEndpoint } from "@/lib/webhooks/serialize-webhook";
import { redeliverEventAction, sendTestEventAction } from "../actions";
import { endpointChangeActions } from "../endpoint-change-actions";

export const metadata: Metadata = { title: "Webhook endpoint" };

export default async function WebhookEndpointPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ page?: string }>;
}) {
  const member = await requireMember();
  const { id } = await params;
  const organizationId = member.organization.id;
  // Another organization's endpoint is as unknown as a made-up id.
  const endpoint = await getWebhookEndpoint(db(), organizationId, id).catch((error: unknown) => {
    if (error instanceof ServiceError && error.status === 404) notFound();
    throw error;
  });
  const paging = pagingQuery.catch({ page: 1, rows: 20 }).parse({ page: (await searchParams).page });
  const deliveries = serializeDeliveryPage(
    await listEndpointDeliveries(db(), organizationId, id, paging),
    paging,
  );
  const view = serializeWebhookEndpoint(endpoint);

  return (
    <>
      <PageHeader
        back={{ href: "/dashboard/webhooks", label: "Webhooks" }}
        title={view.name}
        description={<code className="break-all font-mono">{view.url}</code>}
      />
      <div className="flex flex-col gap-6">
        <Card title="Endpoint">
          <dl className="grid gap-x-6 gap-y-4 px-5 py-4 text-sm sm:grid-cols-2 lg:grid-cols-4">
            <Detail label="Status">
              <StatusBadge status={view.enabled ? "ENABLED" : "DISABLED"} />
            </Detail>
            <Detail label="Payload format">
              {view.adapter === "STRIPE" ? "Stripe-compatible (STRIPE)" : "Standard JSON (NONE)"}
            </Detail>
            <Detail label="Created">
              <DateTime value={view.createdAt} precision="seconds" />
            </Detail>
            <Detail label="Endpoint ID">
              <code className="break-all font-mono text-xs">{view.id}</code>
            </Detail>
          </dl>
          <div className="flex flex-col gap-3 border-t border-slate-100 px-5 py-4">
            <SendTestEventForm action={sendTestEventAction} endpoint={view} eventTypes={eventTypes} />
            {member.role === "OWNER" ? (
              <EndpointActions actions={endpointChangeActions} endpoint={view} />
            ) : null}
          </div>
        </Card>
        <Card
          title="Delivery log"
          description="Every event sent to this endpoint, newest first, with each attempt."
        >
          <DeliveryLog endpointId={view.id} initial={deliveries} redeliver={redeliverEventAction} />
        </Card>
      </div>
    </>
  );
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="text-slate-900">{children}</dd>
    </div>
  );
}
