import type { Metadata } from "next";
import { BrandingCard } from "@/components/dashboard/settings/branding-card";
import { MonthlyReportCard } from "@/components/dashboard/settings/monthly-report-card";
import { OrganizationCard } from "@/components/dashboard/settings/organization-card";
import { ReceiptSettingsCard } from "@/components/dashboard/settings/receipt-settings-card";
import { RefundSettingsCard } from "@/components/dashboard/settings/refund-settings-card";
import { SettlementWalletsCard } from "@/components/dashboard/settings/settlement-wallets-card";
import { SubscriptionGraceCard } from "@/components/dashboard/settings/subscription-grace-card";
import { TeamCard } from "@/components/dashboard/settings/team-card";
import { WebhookUrlCard } from "@/components/dashboard/settings/webhook-url-card";
import { PageHeader } from "@/components/ui/page-header";
import { db } from "@/lib/db/client";
import { requireMember } from "@/lib/http/dashboard-session";
import { getOrganization } from "@/lib/organizations/get-organization";
import { listTeam } from "@/lib/organizations/list-team";
import { listWalletNetworks } from "@/lib/organizations/list-wallet-networks";
import { serializeOrganization } from "@/lib/organizations/serialize-organization";
import {
  cancelInvitationAction,
  inviteMemberAction,
  removeMemberAction,
  renameOrganizationAction,
  updateBrandingAction,
  updateMonthlyReportAction,
  updateReceiptSettingsAction,
  updateRefundSettingsAction,
  updateSettlementWalletsAction,
  updateSubscriptionGraceAction,
  updateWebhookUrlAction,
} from "./actions";

export const metadata: Metadata = { title: "Settings" };

export default async function SettingsPage() {
  const member = await requireMember();
  // Owners get the actions; members see the same cards read-only.
  const isOwner = member.role === "OWNER";
  const [organization, team] = await Promise.all([
    getOrganization(db(), member.organization.id),
    listTeam(db(), member.organization.id),
  ]);
  const shown = serializeOrganization(organization);

  return (
    <>
      <PageHeader title="Settings" description={`How ${organization.name} is named, paid and run.`} />
      <div className="grid gap-6 lg:grid-cols-2">
        <OrganizationCard
          organization={organization}
          rename={isOwner ? renameOrganizationAction : undefined}
        />
        <BrandingCard
          organizationName={organization.name}
          branding={shown.branding}
          update={isOwner ? updateBrandingAction : undefined}
        />
        <ReceiptSettingsCard
          details={shown.merchantDetails}
          receiptEmails={shown.receiptEmails}
          update={isOwner ? updateReceiptSettingsAction : undefined}
        />
        <WebhookUrlCard
          webhookUrl={organization.webhookUrl}
          update={isOwner ? updateWebhookUrlAction : undefined}
        />
        <SettlementWalletsCard
          organizationName={organization.name}
          networks={listWalletNetworks(organization.settlementWallets)}
          wallets={new Map(organization.settlementWallets.map((w) => [w.network, w.address]))}
          pending={organization.settlementChanges}
          update={isOwner ? updateSettlementWalletsAction : undefined}
        />
        <RefundSettingsCard
          capUsd={shown.refundAgentDailyCapUsd}
          autoRefundOverpayments={organization.autoRefundOverpayments}
          update={isOwner ? updateRefundSettingsAction : undefined}
        />
        <MonthlyReportCard
          setting={organization}
          owners={team.members.filter((each) => each.role === "OWNER").map((each) => each.user.email)}
          update={isOwner ? updateMonthlyReportAction : undefined}
        />
        <SubscriptionGraceCard
          graceDays={organization.subscriptionGraceDays}
          update={isOwner ? updateSubscriptionGraceAction : undefined}
        />
        <TeamCard
          organizationName={organization.name}
          team={team}
          userId={member.user.id}
          actions={
            isOwner
              ? {
                  remove: removeMemberAction,
                  cancelInvitation: cancelInvitationAction,
                  invite: inviteMemberAction,
                }
              : undefined
          }
        />
      </div>
    </>
  );
}
