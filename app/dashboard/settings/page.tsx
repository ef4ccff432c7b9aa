import type { Metadata } from "next";
import Link from "next/link";
import { CopyButton } from "@/components/checkout/copy-button";
import { BrandingForm } from "@/components/dashboard/branding-form";
import { InviteMemberForm } from "@/components/dashboard/invite-member-form";
import { ActionForm } from "@/components/ui/action-form";
import { Card } from "@/components/ui/card";
import { ConfirmAction } from "@/components/ui/confirm-action";
import { DateTime } from "@/components/ui/date-time";
import { Field, inputStyles } from "@/components/ui/field";
import { PageHeader } from "@/components/ui/page-header";
import { humanize } from "@/components/ui/status-badge";
import { networkPresets } from "@/lib/chains/networks";
import { settlementNetworks } from "@/lib/chains/settlement-networks";
import { config } from "@/lib/config";
import { db } from "@/lib/db/client";
import { requireMember } from "@/lib/http/dashboard-session";
import { getOrganization } from "@/lib/organizations/get-organization";
import { listTeam } from "@/lib/organizations/list-team";
import { serializeOrganization } from "@/lib/organizations/serialize-organization";
import {
  cancelInvitationAction,
  inviteMemberAction,
  removeMemberAction,
  renameOrganizationAction,
  updateBrandingAction,
  updateSettlementWalletsAction,
  updateWebhookUrlAction,
} from "./actions";

export const metadata: Metadata = { title: "Settings" };

/**
 * The networks to ask an address for: those buyers can pay on, plus any that already has a
 * wallet (so the form, which replaces the list, shows everything it would keep or remove).
 */
function walletNetworks(wallets: { network: string }[]) {
  const configured = config().networks;
  const shown = new Set<string>([...configured.map((n) => n.id), ...wallets.map((w) => w.network)]);
  const ids = settlementNetworks.filter((id) => shown.has(id));
  return (ids.length > 0 ? ids : settlementNetworks).map((id) => ({
    id,
    name:
      configured.find((n) => n.id === id)?.name ??
      networkPresets[id]?.name ??
      (id === "devnet" ? "Devnet (local test chain)" : id),
    accepting: configured.some((n) => n.id === id),
  }));
}

/** A person in the team list: email and role on the left, what an owner can do on the right. */
function TeamRow({
  email,
  you = false,
  detail,
  children,
}: {
  email: string;
  you?: boolean;
  detail: React.ReactNode;
  children?: React.ReactNode;
}) {
  return (
    <li className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 px-5 py-3">
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-medium text-slate-900" title={email}>
          {email}
          {you ? <span className="font-normal text-slate-400"> (you)</span> : null}
        </p>
        <p className="text-xs text-slate-500">{detail}</p>
      </div>
      {children}
    </li>
  );
}

function ReadOnlyNote({ organization }: { organization: string }) {
  return <p className="text-sm text-slate-500">Only owners of {organization} can change this.</p>;
}

export default async function SettingsPage() {
  const member = await requireMember();
  const isOwner = member.role === "OWNER";
  const [organization, team] = await Promise.all([
    getOrganization(db(), member.organization.id),
    listTeam(db(), member.organization.id),
  ]);
  const wallets = new Map(organization.settlementWallets.map((w) => [w.network, w.address]));

  return (
    <>
      <PageHeader title="Settings" description={`How ${organization.name} is named, paid and run.`} />
      <div className="grid gap-6 lg:grid-cols-2">
        <Card title="Organization">
          <div className="flex flex-col gap-5 p-5">
            {isOwner ? (
              <ActionForm action={renameOrganizationAction} submitLabel="Save name" success="Saved.">
                <Field label="Name" hint="Buyers see it on payment pages.">
                  <input
                    className={inputStyles}
                    name="name"
                    required
                    maxLength={255}
                    defaultValue={organization.name}
                  />
                </Field>
              </ActionForm>
            ) : (
              <p className="text-sm font-medium text-slate-900">{organization.name}</p>
            )}
            <div className="flex flex-col gap-1.5 text-sm">
              <span className="font-medium text-slate-700">Organization ID</span>
              <div className="flex items-center gap-2">
                <code className="min-w-0 flex-1 break-all font-mono text-xs text-slate-600">
                  {organization.id}
                </code>
                <CopyButton value={organization.id} label="organization ID" />
              </div>
            </div>
          </div>
        </Card>

        <Card title="Checkout branding" description="How the hosted payment page looks to buyers.">
          <div className="flex flex-col gap-3 p-5">
            {isOwner ? (
              <BrandingForm action={updateBrandingAction} {...serializeOrganization(organization).branding} />
            ) : (
              <ReadOnlyNote organization={organization.name} />
            )}
          </div>
        </Card>

        <Card title="Default webhook URL" description="Receives every event, signed with its own secret.">
          <div className="flex flex-col gap-3 p-5">
            {isOwner ? (
              <ActionForm action={updateWebhookUrlAction} submitLabel="Save URL" success="Saved.">
                <Field label="URL" hint="Leave empty to stop sending to it.">
                  <input
                    className={inputStyles}
                    type="url"
                    name="webhookUrl"
                    maxLength={2048}
                    defaultValue={organization.webhookUrl ?? ""}
                    placeholder="https://shop.example/webhooks"
                  />
                </Field>
              </ActionForm>
            ) : (
              <p className="break-all text-sm text-slate-900">{organization.webhookUrl ?? "Not set"}</p>
            )}
            <p className="text-sm text-slate-500">
              Its signing secret, deliveries and further endpoints are under{" "}
              <Link href="/dashboard/webhooks" className="font-medium text-brand-600 hover:underline">
                Webhooks
              </Link>
              .
            </p>
          </div>
        </Card>

        <Card
          title="Settlement wallets"
          description="Where you are paid, one address per network. Mixed-case addresses are checked against their EIP-55 checksum."
          className="lg:col-span-2"
        >
          <div className="p-5">
            {isOwner ? (
              <ActionForm action={updateSettlementWalletsAction} submitLabel="Save wallets" success="Saved.">
                <div className="grid gap-4 md:grid-cols-2">
                  {walletNetworks(organization.settlementWallets).map((network) => (
                    <Field
                      key={network.id}
                      label={network.name}
                      hint={
                        network.accepting
                          ? "Buyers can pay on this network."
                          : "Not accepting payments on this service."
                      }
                    >
                      <input
                        className={`${inputStyles} font-mono`}
                        name={network.id}
                        defaultValue={wallets.get(network.id) ?? ""}
                        placeholder="0x…"
                        spellCheck={false}
                        autoComplete="off"
                        pattern="\s*0x[0-9a-fA-F]{40}\s*"
                        title="0x followed by 40 hex digits"
                      />
                    </Field>
                  ))}
                </div>
              </ActionForm>
            ) : (
              <div className="flex flex-col gap-3">
                <dl className="flex flex-col gap-2 text-sm">
                  {walletNetworks(organization.settlementWallets).map((network) => (
                    <div key={network.id} className="flex flex-col gap-0.5 sm:flex-row sm:gap-4">
                      <dt className="shrink-0 text-slate-500 sm:w-48">{network.name}</dt>
                      <dd className="min-w-0 break-all font-mono text-slate-900">
                        {wallets.get(network.id) ?? <span className="font-sans text-slate-400">Not set</span>}
                      </dd>
                    </div>
                  ))}
                </dl>
                <ReadOnlyNote organization={organization.name} />
              </div>
            )}
          </div>
        </Card>

        <Card
          title="Team"
          description="Everyone here can see and create payments. Owners also manage keys, settings and the team."
          className="lg:col-span-2"
        >
          <ul aria-label="Members" className="divide-y divide-slate-100">
            {team.members.map((m) => (
              <TeamRow
                key={m.id}
                email={m.user.email}
                you={m.user.id === member.user.id}
                detail={
                  <>
                    {humanize(m.role)} · joined <DateTime value={m.createdAt} precision="date" />
                  </>
                }
              >
                {isOwner ? (
                  <ConfirmAction
                    action={removeMemberAction}
                    label="Remove"
                    question={
                      m.user.id === member.user.id
                        ? "You will lose access to this organization."
                        : `${m.user.email} will lose access at once.`
                    }
                    confirmLabel="Yes, remove"
                    fields={{ membershipId: m.id }}
                  />
                ) : null}
              </TeamRow>
            ))}
          </ul>
          {team.invitations.length > 0 ? (
            <div className="border-t border-slate-100">
              <h3 className="px-5 pt-4 text-sm font-semibold text-slate-900">Pending invitations</h3>
              <ul aria-label="Pending invitations" className="divide-y divide-slate-100">
                {team.invitations.map((i) => (
                  <TeamRow
                    key={i.id}
                    email={i.email}
                    detail={
                      <>
                        {humanize(i.role)} · invited <DateTime value={i.createdAt} precision="date" /> · joins
                        at first sign-in
                      </>
                    }
                  >
                    {isOwner ? (
                      <ConfirmAction
                        action={cancelInvitationAction}
                        label="Cancel invitation"
                        question={`${i.email} will not join when they sign in.`}
                        confirmLabel="Yes, cancel it"
                        fields={{ invitationId: i.id }}
                      />
                    ) : null}
                  </TeamRow>
                ))}
              </ul>
            </div>
          ) : null}
          <div className="border-t border-slate-100 p-5">
            {isOwner ? (
              <>
                <h3 className="mb-3 text-sm font-semibold text-slate-900">Invite a teammate</h3>
                <InviteMemberForm action={inviteMemberAction} />
              </>
            ) : (
              <ReadOnlyNote organization={organization.name} />
            )}
          </div>
        </Card>
      </div>
    </>
  );
}
