import type { Metadata } from "next";
import { CopyButton } from "@/components/checkout/copy-button";
import { LinkQrCode } from "@/components/dashboard/link-qr-code";
import { PaylinkFields } from "@/components/dashboard/paylink-fields";
import { ActionForm } from "@/components/ui/action-form";
import { buttonStyles } from "@/components/ui/button-styles";
import { Card } from "@/components/ui/card";
import { ConfirmAction } from "@/components/ui/confirm-action";
import { DateTime } from "@/components/ui/date-time";
import { PageHeader } from "@/components/ui/page-header";
import { StatusBadge } from "@/components/ui/status-badge";
import { db } from "@/lib/db/client";
import { requireMember } from "@/lib/http/dashboard-session";
import { orNotFound } from "@/lib/http/or-not-found";
import { getPaylink } from "@/lib/paylinks/get-paylink";
import { serializePaylink } from "@/lib/paylinks/serialize-paylink";
import { disablePaylinkAction, editPaylinkAction, enablePaylinkAction } from "../actions";

export const metadata: Metadata = { title: "Paylink" };

function Detail({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5 sm:flex-row sm:gap-4">
      <dt className="shrink-0 text-slate-500 sm:w-24">{label}</dt>
      <dd className="min-w-0 break-words text-slate-900">{children}</dd>
    </div>
  );
}

export default async function PaylinkPage({ params }: { params: Promise<{ id: string }> }) {
  const member = await requireMember();
  const paylink = serializePaylink(
    await orNotFound(getPaylink(db(), member.organization.id, (await params).id)),
  );

  return (
    <>
      <PageHeader
        back={{ href: "/dashboard/paylinks", label: "Paylinks" }}
        title={paylink.name}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <span className="font-medium tabular-nums text-slate-700" data-testid="paylink-price">
              {paylink.amount} {paylink.currency}
            </span>
            <StatusBadge status={paylink.enabled ? "ENABLED" : "DISABLED"} />
          </span>
        }
        actions={
          paylink.enabled ? (
            <a href={paylink.url} target="_blank" rel="noreferrer" className={buttonStyles.primary}>
              Open
            </a>
          ) : null
        }
      />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_24rem]">
        <div className="flex min-w-0 flex-col gap-6">
          <Card
            title="Share"
            description={
              paylink.enabled
                ? "Anyone with this link can pay. Each visit starts a checkout of its own."
                : "Disabled: buyers who open this link see a “not found” page."
            }
          >
            <div className="flex flex-col gap-5 p-5 sm:flex-row sm:items-start">
              <LinkQrCode value={paylink.url} label={`QR code of the link to ${paylink.name}`} />
              <div className="flex min-w-0 flex-1 flex-col gap-3">
                <div className="flex items-center gap-2">
                  <code
                    data-testid="paylink-url"
                    className="min-w-0 flex-1 break-all rounded-lg bg-slate-50 px-3 py-2 font-mono text-sm text-slate-900 ring-1 ring-slate-200"
                  >
                    {paylink.url}
                  </code>
                  <CopyButton value={paylink.url} label="Copy paylink URL" />
                </div>
                <p className="text-sm text-slate-500">
                  Paste it into an email, a chat or a post, or print the QR code for buyers to scan.
                </p>
              </div>
            </div>
          </Card>
          <Card title="Edit" description="Checkouts already started keep the price they were opened at.">
            <div className="p-5">
              <ActionForm
                action={editPaylinkAction}
                submitLabel="Save changes"
                pendingLabel="Saving…"
                success="Saved."
              >
                <input type="hidden" name="id" value={paylink.id} />
                <PaylinkFields values={paylink} />
              </ActionForm>
            </div>
          </Card>
        </div>
        <div className="flex min-w-0 flex-col gap-6 lg:self-start">
          <Card title="Details">
            <dl className="flex flex-col gap-3 p-5 text-sm">
              <Detail label="Description">
                {paylink.description ?? <span className="text-slate-400">None</span>}
              </Detail>
              <Detail label="Created">
                <DateTime value={paylink.createdAt} />
              </Detail>
              <Detail label="Updated">
                <DateTime value={paylink.updatedAt} />
              </Detail>
              <Detail label="ID">
                <code className="break-all font-mono text-xs">{paylink.id}</code>
              </Detail>
            </dl>
          </Card>
          <Card
            title={paylink.enabled ? "Disable" : "Enable"}
            description={
              paylink.enabled
                ? "Stops new checkouts through this link. Payments already under way complete."
                : "Lets buyers pay through this link again."
            }
          >
            <div className="p-5">
              {paylink.enabled ? (
                <ConfirmAction
                  action={disablePaylinkAction}
                  label="Disable paylink"
                  question="Buyers will no longer be able to pay through this link."
                  confirmLabel="Yes, disable"
                  fields={{ id: paylink.id, confirm: "true" }}
                />
              ) : (
                <ActionForm action={enablePaylinkAction} submitLabel="Enable paylink" variant="secondary">
                  <input type="hidden" name="id" value={paylink.id} />
                </ActionForm>
              )}
            </div>
          </Card>
        </div>
      </div>
    </>
  );
}
